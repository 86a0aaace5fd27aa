package movements

import (
	"cmp"
	"context"
	"fmt"
	"strings"
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
		if _, hidden, err := hiddenFrom(ctx, tx, req.UserName, target); err != nil || hidden {
			return failedUnless(err, unknownTarget(undoTarget, req.TargetID)) // notyours.go
		}
		return refuse(livestock.CodeNotUndoable, "only the user who submitted a request may undo it")
	}
	if ok, err := s.stillActsForTarget(ctx, tx, req.UserName, target); err != nil || !ok {
		return failedUnless(err, notActing(undoTarget, fmt.Sprint(req.TargetID), targetHolding(target)))
	}
	switch {
	case target.IsFullUndone:
		return refuse(livestock.CodeUndoneAlready, "the request is undone already")
	case !target.Status.Applied() || !target.UndoSupported:
		if no, err := s.decidedSince(ctx, tx, target); err != nil || no.msg != "" {
			return failedUnless(err, livestock.FieldError{Code: no.code, Source: undoTarget, Value: fmt.Sprint(req.TargetID), Message: no.msg})
		}
		return refuse(livestock.CodeNotUndoable, "the request cannot be undone (undoSupported is false)")
	}
	var no refusal
	switch target.Type {
	case store.RequestTransfer, store.RequestCorrection:
		no, err = s.undoTransfer(ctx, tx, target, req.UserName)
	case store.RequestReview:
		no, err = s.undoReview(ctx, tx, target, req.UserName)
	default:
		no = cannot("a request of type " + string(target.Type) + " cannot be undone")
	}
	if err != nil {
		return outcome{}, err
	}
	if no.msg != "" {
		return refuse(no.code, no.msg)
	}
	target.IsFullUndone, target.UndoSupported, target.UpdatedDate = true, false, s.stamp()
	if err := tx.UpdateRequest(ctx, target); err != nil {
		return outcome{}, err
	}
	req.MovementDate, req.Species, req.Holdings = target.MovementDate, target.Species, target.Holdings
	return outcome{}, nil
}

// refusal is why an undo cannot be done, with its code; the zero value
// is none.
type refusal struct {
	code livestock.Code
	msg  string
}

// cannot is a refusal of the general kind (V029, live 14005).
func cannot(msg string) refusal { return refusal{livestock.CodeNotUndoable, msg} }

// decidedSince says why a transfer or correction that is no longer
// undoable cannot be, when the reason is someone else's word on its
// movement (its reviewer's decision, or the other end's own report): the
// live catalogue has a code for that (14104), which tells the sender whom
// to ask.
func (s *Service) decidedSince(ctx context.Context, tx store.Tx, target store.Request) (refusal, error) {
	if !target.Status.Applied() || (target.Type != store.RequestTransfer && target.Type != store.RequestCorrection) {
		return refusal{}, nil
	}
	id, err := movementOf(ctx, tx, target)
	if err != nil {
		return refusal{}, err
	}
	m, err := tx.LockMovement(ctx, id)
	switch {
	case livestock.IsNotFound(err): // a report of a move the other end made
		return refusal{}, nil
	case err != nil:
		return refusal{}, err
	case m.RequestID != target.ID:
		return refusal{}, nil
	}
	return standsOn(m), nil
}

// standsOn is why m's transfer cannot be undone because of another
// user's word on it, none when nothing stands on it.
func standsOn(m store.Movement) refusal {
	switch {
	case m.State == store.MovementAccepted || m.State == store.MovementRejected:
		return refusal{livestock.CodeReviewedSince, "the movement was " + strings.ToLower(string(m.State)) +
			" by its reviewer since; the reviewer must undo the review first"}
	case len(m.Duplicates) > 0 && m.State == store.MovementPendingReview:
		return refusal{livestock.CodeReportedByBoth, reportedByBoth + ": correct it instead, or its reviewer rejects it"}
	case len(m.Duplicates) > 0 && m.State == store.MovementCompleted:
		return refusal{livestock.CodeReportedByBoth, reportedByBoth + ": it stands as both reported it"}
	}
	return refusal{}
}

// undoTransfer withdraws a movement that awaits review, or puts back the
// animals of one that needed none. It returns why it cannot, if it cannot.
func (s *Service) undoTransfer(ctx context.Context, tx store.Tx, target store.Request, user string) (refusal, error) {
	id, err := movementOf(ctx, tx, target)
	if err != nil {
		return refusal{}, err
	}
	m, err := tx.LockMovement(ctx, id)
	if err != nil {
		return refusal{}, err
	}
	if m.RequestID != target.ID {
		return cannot(fmt.Sprintf("request %d was corrected since; undo request %d", target.ID, m.RequestID)), nil
	}
	if no := standsOn(m); no.msg != "" {
		return no, nil
	}
	switch m.State {
	case store.MovementPendingReview:
	case store.MovementCompleted:
		if no, err := takenBack(ctx, tx, m, user); no.msg != "" || err != nil {
			return no, err
		}
		if err := moveBack(ctx, tx, m, true); err != nil {
			return refusal{}, err
		}
	default:
		return cannot("the movement is " + string(m.State)), nil
	}
	m.State, m.ReviewHolding = store.MovementUndone, livestock.CPH{}
	return refusal{}, tx.UpdateMovement(ctx, m)
}

// undoReview takes a review back: accepted animals return to the source
// and the movement awaits review again.
func (s *Service) undoReview(ctx context.Context, tx store.Tx, target store.Request, user string) (refusal, error) {
	reviewed, err := lockNamed(ctx, tx, target.ID, target.TargetID) // before the movement: lockorder.go
	if err != nil {
		return refusal{}, err
	}
	id, err := movementOf(ctx, tx, reviewed)
	if err != nil {
		return refusal{}, err
	}
	m, err := tx.LockMovement(ctx, id)
	if err != nil {
		return refusal{}, err
	}
	if m.ReviewID != target.ID || m.RequestID != reviewed.ID {
		return cannot("the movement was not decided by this review"), nil
	}
	// A movement awaiting its source's consent holds no animals: the next
	// acceptance checks them again (sourceChecks), so the rejected may
	// have moved since.
	if !m.SourceReviews() {
		if no, err := stayedRejected(ctx, tx, m, user); no.msg != "" || err != nil {
			return no, err
		}
	}
	if no, err := s.putBack(ctx, tx, m, false, user); no.msg != "" || err != nil {
		return no, err
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
		return refusal{}, err
	}
	// A move the other end reported too stays not undoable (V083).
	return refusal{}, s.setUndoable(ctx, tx, m.RequestID, len(m.Duplicates) == 0)
}

// stayedRejected says why a review cannot be undone when an animal it
// rejected has moved since: undone, the movement awaits review again, and
// a second review could accept the animal onto the destination from a
// holding it is no longer on. A rejected animal stayed where it was
// before the movement, so it must still be there, since then, and no
// later movement may name it. The refusal says nothing of where: the
// source is another keeper's holding when the destination reviewed.
func stayedRejected(ctx context.Context, tx store.Tx, m store.Movement, user string) (refusal, error) {
	var tags []string
	for _, d := range m.Devices {
		if d.Outcome == "rejected" {
			tags = append(tags, d.Identifier.String())
		}
	}
	if len(tags) == 0 {
		return refusal{}, nil
	}
	if no, err := movedLater(ctx, tx, m, tags, livestock.CPH{}, nil, user); no.msg != "" || err != nil {
		return no, err
	}
	animals, err := tx.Animals(ctx, tags)
	if err != nil {
		return refusal{}, err
	}
	for _, d := range m.Devices {
		if d.Outcome != "rejected" {
			continue
		}
		a, ok := animals[d.Identifier.String()]
		if !ok {
			return refusal{}, livestock.Errorf(livestock.KindNotFound, "no animal wears %q", d.Identifier)
		}
		if a.CPH != d.PriorCPH || !a.OnSince.Equal(d.PriorOnSince) {
			return refusal{livestock.CodeMovedLater, laterMoves}, nil
		}
	}
	return refusal{}, nil
}

// reportedByBoth begins the refusal of an undo of a move the other end's
// keeper reported too: their report made no movement of its own, so
// undone, this one would take theirs with it, and the move would vanish
// from the register and every trace while they still say it happened.
const reportedByBoth = "the keeper at the other end has reported this move too, and their report stands on this movement"

// laterMoves is the refusal of an undo whose animals have moved since, in
// another keeper's request or in one that cannot be named.
const laterMoves = "one or more animals of this movement have moved in later requests: undo those first"

// movedLater refuses an undo of m when another movement moves or holds
// one of its animals (tags, or batches leaving from) since: one made or
// decided after it, or any other awaiting review (a job that ran late, a
// review undone since, which request ids do not tell). Putting them back
// would leave that movement moving animals from where they never were. It
// names the later request only when it is the undoer's own: another
// keeper's moves are not theirs to learn.
func movedLater(ctx context.Context, tx store.Tx, m store.Movement, tags []string, from livestock.CPH, batches []string, user string) (refusal, error) {
	what, rid, found, err := tx.MovedAfter(ctx, m.Settled(), tags, from, batches)
	if err != nil {
		return refusal{}, err
	}
	if !found {
		moving, err := tx.InTransit(ctx, tags)
		if err != nil {
			return refusal{}, err
		}
		for _, other := range moving {
			if other != m.ID {
				return refusal{livestock.CodeMovedLater, laterMoves}, nil
			}
		}
		return refusal{}, nil
	}
	later, err := tx.Request(ctx, rid)
	if err != nil && !livestock.IsNotFound(err) {
		return refusal{}, err
	}
	if err == nil && later.UserName == user {
		return refusal{livestock.CodeMovedLater, fmt.Sprintf("%s moved again in your request %d: undo that one first", what, rid)}, nil
	}
	return refusal{livestock.CodeMovedLater, laterMoves}, nil
}

// putBack returns a movement's accepted animals to where they were. An
// animal that has moved on since cannot be put back: then nothing is.
func (s *Service) putBack(ctx context.Context, tx store.Tx, m store.Movement, all bool, user string) (refusal, error) {
	if no, err := canPutBack(ctx, tx, m, all, user); no.msg != "" || err != nil {
		return no, err
	}
	return refusal{}, moveBack(ctx, tx, m, all)
}

// returning lists the tags and batch numbers of m that an undo puts back:
// the accepted ones, or all of them.
func returning(m store.Movement, all bool) (tags, batches []string) {
	for _, d := range m.Devices {
		if d.Outcome == "accepted" || all {
			tags = append(tags, d.Identifier.String())
		}
	}
	for _, b := range m.Batches {
		if (b.Accepted > 0 || all) && !b.BatchNumber.IsZero() {
			batches = append(batches, b.BatchNumber.String())
		}
	}
	return tags, batches
}

// reviewedNow refuses to let user take back completed movement m when a
// keeper other than user would have to review it if it were made now
// (user no longer acts for its destination, say): its animals are that
// keeper's to answer for.
func reviewedNow(ctx context.Context, tx store.Tx, m store.Movement, user string) (refusal, error) {
	u, err := tx.UserByName(ctx, user)
	if err != nil {
		return refusal{}, err
	}
	source, err := optional(tx.Holding(ctx, m.Source))
	if err != nil || source == nil {
		return refusal{}, err
	}
	dest, err := optional(tx.Holding(ctx, m.Destination))
	if err != nil || dest == nil {
		return refusal{}, err
	}
	if r := reviewer(u, *source, *dest); !r.IsZero() {
		return cannot(fmt.Sprintf("the movement needed no review when it was made, and you no longer act for holding %s: its animals are its keeper's now", r)), nil
	}
	return refusal{}, nil
}

// takenBack says why completed movement m cannot be taken back (undone,
// or undone to be corrected) by user: its animals are another keeper's
// to answer for now, or cannot be put back.
func takenBack(ctx context.Context, tx store.Tx, m store.Movement, user string) (refusal, error) {
	if no, err := reviewedNow(ctx, tx, m, user); no.msg != "" || err != nil {
		return no, err
	}
	return canPutBack(ctx, tx, m, true, user)
}

// canPutBack says why m's animals cannot be put back, if they cannot:
// one has moved on since, another movement holds it, or it is no longer
// where m left it.
func canPutBack(ctx context.Context, tx store.Tx, m store.Movement, all bool, user string) (refusal, error) {
	tags, batches := returning(m, all)
	if no, err := movedLater(ctx, tx, m, tags, m.Destination, batches, user); no.msg != "" || err != nil {
		return no, err
	}
	animals, err := tx.Animals(ctx, tags)
	if err != nil {
		return refusal{}, err
	}
	for _, id := range tags {
		a, ok := animals[id]
		if !ok {
			return refusal{}, livestock.Errorf(livestock.KindNotFound, "no animal wears %q", id)
		}
		if a.CPH != m.Destination || !a.OnSince.Equal(m.ArrivalDate) {
			return refusal{livestock.CodeMovedLater, laterMoves}, nil
		}
	}
	return refusal{}, nil
}

// moveBack puts m's animals back where they were before it, grouped by
// that place and date: most often all from one holding since one date,
// moved back in one statement. canPutBack says whether it may.
func moveBack(ctx context.Context, tx store.Tx, m store.Movement, all bool) error {
	type prior struct {
		cph     livestock.CPH
		onSince time.Time
	}
	var priors []prior
	back := map[prior][]string{}
	for _, d := range m.Devices {
		if d.Outcome == "accepted" || all {
			p := prior{d.PriorCPH, d.PriorOnSince}
			if back[p] == nil {
				priors = append(priors, p)
			}
			back[p] = append(back[p], d.Identifier.String())
		}
	}
	for _, p := range priors {
		if err := tx.MoveAnimals(ctx, back[p], p.cph, p.onSince); err != nil {
			return err
		}
	}
	return nil
}
