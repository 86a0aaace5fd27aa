package movements

import (
	"context"
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// A write moves animals only for a keeper who acts now for the holding it
// acts for: checked when it is submitted, with the caller's grants, and
// again when its job applies it, with the grants read in the job's own
// transaction. Grants withdrawn in between (drover import --update) stop
// it, and so do grants withdrawn after the request it undoes or corrects.

// stillActs reports whether the user named userName acts, as tx sees the
// grants now, for h. A user who no longer exists acts for nothing.
func stillActs(ctx context.Context, tx store.Tx, userName string, h livestock.HoldingRef) (bool, error) {
	u, err := tx.UserByName(ctx, userName)
	if livestock.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return actsFor(u, h), nil
}

// actedFor is the holding a stored request acted for: a transfer's or
// correction's userHolding, a review's holding. ok is false for a request
// that acted for none (an undo) or whose content no longer reads.
func (s *Service) actedFor(r store.Request) (h livestock.HoldingRef, ok bool) {
	switch r.Type {
	case store.RequestTransfer, store.RequestCorrection:
		d, err := s.vocab.decodeTransfer(r.Content)
		return d.t.UserHolding, err == nil
	case store.RequestReview:
		rv, _, err := decodeReview(r.Content)
		return livestock.HoldingRef{CPH: rv.Holding}, err == nil
	}
	return livestock.HoldingRef{}, false
}

// actsForTarget reports whether u acts now for the holding target acted
// for; for a request whose holding cannot be told, for one of the
// holdings it concerns.
func (s *Service) actsForTarget(u livestock.User, target store.Request) bool {
	if h, ok := s.actedFor(target); ok {
		return actsFor(u, h)
	}
	for _, c := range target.Holdings {
		if u.CanActFor(c) {
			return true
		}
	}
	return false
}

// stillActsForTarget is actsForTarget with the grants tx sees now.
func (s *Service) stillActsForTarget(ctx context.Context, tx store.Tx, userName string, target store.Request) (bool, error) {
	u, err := tx.UserByName(ctx, userName)
	if livestock.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return s.actsForTarget(u, target), nil
}

// notActing is the error of a write refused because its submitter does
// not act now for what: a holding the submitter named, or the one their
// own earlier request acted for; never anything another keeper's holds.
func notActing(source, value, what string) livestock.FieldError {
	return livestock.FieldError{Code: livestock.CodeForbidden, Source: source, Value: value,
		Message: "you do not act now for " + what}
}

// targetHolding names, in an error, the holding target acted for.
func targetHolding(target store.Request) string {
	return fmt.Sprintf("the holding request %d acted for", target.ID)
}
