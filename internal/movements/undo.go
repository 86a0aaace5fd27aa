package movements

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// applyUndo reverses a request of the submitter's own: a transfer (or its
// correction) is withdrawn and its animals put back; a review is taken
// back and the movement awaits review again.
func (s *Service) applyUndo(ctx context.Context, tx store.Tx, req *store.Request) (outcome, error) {
	refuse := func(code livestock.Code, msg string) (outcome, error) {
		return failed(livestock.FieldError{Code: code, Source: undoTarget, Value: fmt.Sprint(req.TargetID), Message: msg})
	}
	if _, flags, err := s.vocab.decodeUndo(req.Content); err != nil {
		return failed(fieldsOf(err)...)
	} else if out, bad := s.unknownFlags(flags, livestock.Species(0)); bad {
		return out, nil
	}
	target, err := lockNamed(ctx, tx, req.ID, req.TargetID)
	if livestock.IsNotFound(err) {
		return failed(unknownTarget(undoTarget, req.TargetID))
	}
	if err != nil {
		return outcome{}, err
	}
	if target.UserName != req.UserName {
		if hidden, err := hiddenFrom(ctx, tx, req.UserName, target); err != nil || hidden {
			return failedUnless(err, unknownTarget(undoTarget, req.TargetID)) // notyours.go
		}
		return refuse(livestock.CodeNotUndoable, "only the user who submitted a request may undo it")
	}
	if ok, err := s.stillActsForTarget(ctx, tx, req.UserName, target); err != nil || !ok {
		return failedUnless(err, notActing(undoTarget, fmt.Sprint(req.TargetID), targetHolding(target)))
	}
	switch {
	case target.IsFullUndone:
		return refuse(livestock.CodeNotUndoable, "the request is undone already")
	case !target.Status.Applied() || !target.UndoSupported:
		return refuse(livestock.CodeNotUndoable, "the request cannot be undone (undoSupported is false)")
	}
	var why string
	switch target.Type {
	case store.RequestTransfer, store.RequestCorrection:
		why, err = s.undoTransfer(ctx, tx, target)
	case store.RequestReview:
		why, err = s.undoReview(ctx, tx, target)
	default:
		why = "a request of type " + string(target.Type) + " cannot be undone"
	}
	if err != nil {
		return outcome{}, err
	}
	if why != "" {
		return refuse(livestock.CodeNotUndoable, why)
	}
	target.IsFullUndone, target.UndoSupported, target.UpdatedDate = true, false, s.stamp()
	if err := tx.UpdateRequest(ctx, target); err != nil {
		return outcome{}, err
	}
	req.MovementDate, req.Species, req.Holdings = target.MovementDate, target.Species, target.Holdings
	return outcome{}, nil
}

// undoTransfer withdraws a movement that awaits review, or puts back the
// animals of one that needed none. It returns why it cannot, if it cannot.
func (s *Service) undoTransfer(ctx context.Context, tx store.Tx, target store.Request) (string, error) {
	id, err := movementOf(ctx, tx, target)
	if err != nil {
		return "", err
	}
	m, err := tx.LockMovement(ctx, id)
	if err != nil {
		return "", err
	}
	if m.RequestID != target.ID {
		return fmt.Sprintf("request %d was corrected since; undo request %d", target.ID, m.RequestID), nil
	}
	switch m.State {
	case store.MovementPendingReview:
	case store.MovementCompleted:
		if why, err := s.putBack(ctx, tx, m, true); why != "" || err != nil {
			return why, err
		}
	default:
		return "the movement is " + string(m.State) + "; the reviewer must undo the review first", nil
	}
	m.State, m.ReviewHolding = store.MovementUndone, livestock.CPH{}
	return "", tx.UpdateMovement(ctx, m)
}

// undoReview takes a review back: accepted animals return to the source
// and the movement awaits review again.
func (s *Service) undoReview(ctx context.Context, tx store.Tx, target store.Request) (string, error) {
	reviewed, err := lockNamed(ctx, tx, target.ID, target.TargetID) // before the movement: lockorder.go
	if err != nil {
		return "", err
	}
	id, err := movementOf(ctx, tx, reviewed)
	if err != nil {
		return "", err
	}
	m, err := tx.LockMovement(ctx, id)
	if err != nil {
		return "", err
	}
	if m.ReviewID != target.ID || m.RequestID != reviewed.ID {
		return "the movement was not decided by this review", nil
	}
	// A movement awaiting its source's consent holds no animals: the next
	// acceptance checks them again (sourceChecks), so the rejected may
	// have moved since.
	if !sourceConsent(m) {
		if why, err := stayedRejected(ctx, tx, m); why != "" || err != nil {
			return why, err
		}
	}
	if why, err := s.putBack(ctx, tx, m, false); why != "" || err != nil {
		return why, err
	}
	for i := range m.Devices {
		m.Devices[i].Outcome = ""
	}
	for i := range m.Batches {
		m.Batches[i].Accepted = 0
	}
	// It awaits again the review of the holding that reviewed it: the
	// destination, or the source of an on-move reported by the destination.
	m.State, m.ReviewHolding, m.ArrivalDate, m.ReviewID = store.MovementPendingReview, cmp.Or(m.ReviewHolding, m.Destination), time.Time{}, 0
	if err := tx.UpdateMovement(ctx, m); err != nil {
		return "", err
	}
	return "", s.setUndoable(ctx, tx, m.RequestID, true)
}

// stayedRejected says why a review cannot be undone when an animal it
// rejected has moved since: undone, the movement awaits review again, and
// a second review could accept the animal onto the destination from a
// holding it is no longer on. A rejected animal stayed where it was
// before the movement, so it must still be there, since then.
func stayedRejected(ctx context.Context, tx store.Tx, m store.Movement) (string, error) {
	var tags []string
	for _, d := range m.Devices {
		if d.Outcome == "rejected" {
			tags = append(tags, d.Identifier.String())
		}
	}
	if len(tags) == 0 {
		return "", nil
	}
	animals, err := tx.Animals(ctx, tags)
	if err != nil {
		return "", err
	}
	for _, d := range m.Devices {
		if d.Outcome != "rejected" {
			continue
		}
		a, ok := animals[d.Identifier.String()]
		if !ok {
			return "", livestock.Errorf(livestock.KindNotFound, "no animal wears %q", d.Identifier)
		}
		if a.CPH != d.PriorCPH || !a.OnSince.Equal(d.PriorOnSince) {
			return fmt.Sprintf("tag %s, which the review rejected, has moved on from %s since; undo that move first", d.Identifier, d.PriorCPH), nil
		}
	}
	return "", nil
}

// putBack returns a movement's accepted animals to where they were. An
// animal that has moved on since cannot be put back: then nothing is.
func (s *Service) putBack(ctx context.Context, tx store.Tx, m store.Movement, all bool) (string, error) {
	// The animals to put back, by where they were before: most often all
	// from one holding since one date, moved back in one statement.
	type prior struct {
		cph     livestock.CPH
		onSince time.Time
	}
	var tags []string
	var priors []prior
	back := map[prior][]string{}
	for _, d := range m.Devices {
		if d.Outcome == "accepted" || all {
			tags = append(tags, d.Identifier.String())
			p := prior{d.PriorCPH, d.PriorOnSince}
			if back[p] == nil {
				priors = append(priors, p)
			}
			back[p] = append(back[p], d.Identifier.String())
		}
	}
	animals, err := tx.Animals(ctx, tags)
	if err != nil {
		return "", err
	}
	for _, id := range tags {
		a, ok := animals[id]
		if !ok {
			return "", livestock.Errorf(livestock.KindNotFound, "no animal wears %q", id)
		}
		if a.CPH != m.Destination || !a.OnSince.Equal(m.ArrivalDate) {
			return fmt.Sprintf("tag %s has moved on from %s since; undo that move first", id, m.Destination), nil
		}
	}
	for _, p := range priors {
		if err := tx.MoveAnimals(ctx, back[p], p.cph, p.onSince); err != nil {
			return "", err
		}
	}
	return "", nil
}
