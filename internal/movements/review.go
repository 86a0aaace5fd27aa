package movements

import (
	"context"
	"fmt"
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// applyReview applies the receiving keeper's review: accepted animals go
// onto the destination from the arrival date, rejected ones stay where
// they were, and the movement is decided.
func (s *Service) applyReview(ctx context.Context, tx store.Tx, req *store.Request) (outcome, error) {
	r, w, err := decodeReview(req.Content)
	if err != nil {
		return failed(fieldsOf(err)...)
	}
	if errs := s.unknownReviewFlags(w.ProcessingFlags); len(errs) > 0 {
		return failed(errs...)
	}
	holding := livestock.HoldingRef{CPH: r.Holding}
	if ok, err := stillActs(ctx, tx, req.UserName, holding); err != nil || !ok {
		return failedUnless(err, notActing("/content/holding", r.Holding.String(), "holding "+r.Holding.String()))
	}
	at := "/content/reviewMovement/requestId"
	notReviewable := func(msg string) (outcome, error) {
		return failed(livestock.FieldError{Code: livestock.CodeNotReviewable, Source: at, Value: fmt.Sprint(r.RequestID), Message: msg})
	}
	reviewed, err := lockNamed(ctx, tx, req.ID, r.RequestID) // before the movement: lockorder.go
	if livestock.IsNotFound(err) {
		return failed(unknownTarget(at, r.RequestID))
	}
	if err != nil {
		return outcome{}, err
	}
	m, hidden, err := hiddenFrom(ctx, tx, req.UserName, reviewed)
	if err != nil || hidden {
		return failedUnless(err, unknownTarget(at, r.RequestID)) // notyours.go
	}
	if m.ID == 0 { // the reviewer's own request: hiddenFrom read no movement
		id, err := movementOf(ctx, tx, reviewed)
		if livestock.IsNotFound(err) {
			return notReviewable("the request is not a transfer")
		}
		if err != nil {
			return outcome{}, err
		}
		if m, err = tx.LockMovement(ctx, id); livestock.IsNotFound(err) {
			return notReviewable("the transfer made no movement of its own (it failed, or reported again a move already in the system)")
		}
		if err != nil {
			return outcome{}, err
		}
	}
	if (m.State == store.MovementAccepted || m.State == store.MovementRejected) && m.ReviewID != 0 && m.ReviewHolding == r.Holding {
		// Reviewed already from this same holding, which the caller acts
		// for: the live catalogue names the review that decided it.
		return failed(livestock.FieldError{Code: livestock.CodeReviewedAlready, Source: at, Value: fmt.Sprint(r.RequestID),
			Message: fmt.Sprintf("movement %d has already been reviewed by request %d", m.ID, m.ReviewID)})
	}
	if m.State != store.MovementPendingReview || m.ReviewHolding != r.Holding {
		return notReviewable(fmt.Sprintf("movement %d does not await the review of %s", m.ID, r.Holding))
	}
	if m.RequestID != r.RequestID {
		return failed(staleReview(r.RequestID, m.RequestID))
	}
	if arrivalMissing(r, m) {
		return failed(missingArrival())
	}
	if !r.ArrivalGiven || m.SourceReviews() {
		// A source keeper's consent ends no journey of theirs: the live
		// catalogue forbids its arrivalDate (21505), which Drover takes
		// and does not use. The animals arrived as the destination
		// reported, on the transfer date, as when no consent is needed.
		r.ArrivalDate = livestock.DateOf(m.TransferDate)
	}
	for _, list := range [][]livestock.Tag{r.AcceptedDevices, r.RejectedDevices} {
		for i := range list {
			list[i] = tagFor(list[i], m.Species)
		}
	}
	mv := livestock.ReviewedMovement{TransferDate: livestock.DateOf(m.TransferDate)}
	for _, d := range m.Devices {
		mv.Devices = append(mv.Devices, d.Identifier.String())
	}
	mv.Unnamed = m.Unnamed()
	for _, b := range m.Batches {
		mv.Batches = append(mv.Batches, livestock.BatchLine{Number: b.BatchNumber, Total: b.AnimalTotal})
		mv.BatchIDs = append(mv.BatchIDs, b.ID)
	}
	decided, errs := livestock.CheckReview(r, mv, s.dateOf(req.RequestDate))
	if len(errs) > 0 {
		return failed(errs...)
	}
	var warns []livestock.FieldError
	if r.IsAccepted && m.SourceReviews() {
		if warns, err = s.sourceChecks(ctx, tx, &m, decided.Accepted); err != nil {
			return outcome{}, err
		}
		if len(warns) > 0 && !acceptsAny(m, decided) {
			// Not one animal the source's keeper confirmed can leave it
			// now: accepted, the movement would be approved with nothing
			// on it, and traced as a way between the two holdings. The
			// checks' reasons are the review's errors.
			return failed(warns...)
		}
		still, err := s.sourceStandstill(ctx, tx, &m)
		if err != nil {
			return outcome{}, err
		}
		warns = append(warns, still...)
	}
	m.State, m.ArrivalDate, m.ReviewID = store.MovementRejected, r.ArrivalDate.Time(), req.ID
	if r.IsAccepted && acceptsAny(m, decided) {
		// An acceptance that lists every animal as rejected rejects the
		// movement: approved, it would be a way of nothing between two
		// holdings.
		m.State = store.MovementAccepted
	}
	var accepted []string
	for i := range m.Devices {
		d := &m.Devices[i]
		d.Outcome = "rejected"
		if decided.Accepted[d.Identifier.String()] {
			d.Outcome = "accepted"
			accepted = append(accepted, d.Identifier.String())
		}
	}
	if err := tx.MoveAnimals(ctx, accepted, m.Destination, m.ArrivalDate); err != nil {
		return outcome{}, err
	}
	for i := range m.Batches {
		m.Batches[i].Accepted = decided.BatchAccepted[i]
	}
	if err := tx.UpdateMovement(ctx, m); err != nil {
		return outcome{}, err
	}
	// Once reviewed, the sender can no longer undo the transfer; the
	// reviewer can undo the review.
	if err := s.setUndoable(ctx, tx, m.RequestID, false); err != nil {
		return outcome{}, err
	}
	req.TargetID, req.Species, req.UndoSupported = m.RequestID, m.Species, true
	// The request concerns both ends, whichever reviewed: an inspector's
	// holding filter finds a consent under the destination too.
	other := m.Source
	if r.Holding == m.Source {
		other = m.Destination
	}
	req.Holdings = holdingList(r.Holding, other)
	return outcome{warns: warns}, nil
}

// acceptsAny reports whether decided moves any animal of m: a tag
// accepted, a batch, or an animal no list names (a deer by its freeze
// brand).
func acceptsAny(m store.Movement, decided livestock.ReviewOutcome) bool {
	if decided.Unnamed > 0 {
		return true
	}
	for _, d := range m.Devices {
		if decided.Accepted[d.Identifier.String()] {
			return true
		}
	}
	return slices.ContainsFunc(decided.BatchAccepted, func(n int) bool { return n > 0 })
}

// staleReview is the error of a review naming request named when the
// movement was last made by request current: the sender corrected it
// after the reviewer saw it, so the review would decide animals and facts
// the reviewer never saw.
func staleReview(named, current int64) livestock.FieldError {
	return livestock.FieldError{Code: livestock.CodeReviewStale, Source: "/content/reviewMovement/requestId", Value: fmt.Sprint(named),
		Message: fmt.Sprintf("request %d has been corrected by request %d since; look the movement up again and review request %d", named, current, current)}
}

// checkMovement refuses at once a review of a movement awaiting the
// reviewing holding's review that has been corrected since the version the
// review names, or that the destination accepts without an arrival date.
// Anything else it cannot tell yet is left to the job, which checks again:
// a correction may come between the two.
func (s *Service) checkMovement(ctx context.Context, u livestock.User, r livestock.Review) error {
	reviewed, m, found, err := s.namedRequest(ctx, u, r.RequestID)
	if err != nil {
		return err
	}
	if !found {
		return noSuchRequest("/content/reviewMovement/requestId", r.RequestID)
	}
	if m.ID == 0 { // the caller's own request: namedRequest read no movement
		id, err := movementOf(ctx, s.store, reviewed)
		if err == nil {
			m, err = s.store.Movement(ctx, id)
		}
		if livestock.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	switch {
	case m.State != store.MovementPendingReview || m.ReviewHolding != r.Holding:
		return nil
	case m.RequestID != r.RequestID:
		return livestock.Invalid("the movement has been corrected since", staleReview(r.RequestID, m.RequestID))
	case arrivalMissing(r, m):
		return livestock.Invalid("the arrival date is required", missingArrival())
	}
	return nil
}

// arrivalMissing reports whether review r of movement m lacks the arrival
// date it needs: the destination's keeper, accepting, says when the
// animals arrived. The source's keeper confirming what left does not know
// (the animals arrive on the transfer date), nor does a rejection need one.
func arrivalMissing(r livestock.Review, m store.Movement) bool {
	return !r.ArrivalGiven && r.IsAccepted && !m.SourceReviews()
}

func missingArrival() livestock.FieldError {
	return livestock.FieldError{Code: livestock.CodeMissing, Source: "/content/reviewMovement/arrivalDate",
		Message: "the arrival date is required when the destination accepts a movement"}
}

// setUndoable sets whether a request may be undone. That changes the
// request, so its updatedDate too.
func (s *Service) setUndoable(ctx context.Context, tx store.Tx, id int64, undoable bool) error {
	r, err := tx.LockRequest(ctx, id)
	if err != nil {
		return err
	}
	r.UndoSupported, r.UpdatedDate = undoable, s.stamp()
	return tx.UpdateRequest(ctx, r)
}
