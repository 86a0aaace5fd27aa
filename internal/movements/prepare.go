package movements

import (
	"context"
	"fmt"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// prepareTransfer checks a transfer or a correction at once: its formats,
// that the caller acts for userHolding (403), that userHolding is the
// source or the destination (400), and the rules it keeps or breaks by
// itself (livestock.CheckTransferForm, 400). The rules that need the
// registry's records are the job's.
func (s *Service) prepareTransfer(ctx context.Context, typ store.RequestType, u livestock.User, content []byte) (store.Request, error) {
	d, err := s.vocab.decodeTransfer(content)
	if err != nil {
		return store.Request{}, err
	}
	// Every impossible date at once: in the future, or a birth after its tagging.
	if errs := append(futureTimes(d, s.now()), bornAfterTagging(d.model)...); len(errs) > 0 {
		return store.Request{}, livestock.Invalid("the transfer names a date that cannot be", errs...)
	}
	t := d.t
	var req store.Request
	if typ == store.RequestCorrection {
		if d.target < 1 {
			at := "/content/" + cmpOr(d.named, correctionTarget)
			return req, livestock.Invalid("the request to correct is required", livestock.FieldError{Code: livestock.CodeMissing,
				Source: at, Message: "the id of the transfer request to correct is required"})
		}
		req.TargetID = d.target
		if err := s.ownTarget(ctx, u, req.TargetID, "/content/"+cmpOr(d.named, correctionTarget), "correct"); err != nil {
			return req, err
		}
	} else if d.named != "" {
		return req, livestock.Invalid("a transfer names no request to correct", livestock.FieldError{Code: livestock.CodeUnknownField,
			Source: "/content/" + d.named, Message: "property is not allowed in a transfer; send corrections to /v1/CorrectTransferRequests"})
	}
	if !actsFor(u, t.UserHolding) {
		return req, forbidden("/content/userHolding", t.UserHolding.String(), "you may not act for holding "+t.UserHolding.String())
	}
	dest, err := s.cphOf(ctx, t.Destination)
	if err != nil {
		return req, err
	}
	user, err := s.cphOf(ctx, t.UserHolding)
	if err != nil {
		return req, err
	}
	isSource, isDest := user == t.Source, user == dest && !dest.IsZero()
	switch {
	case isSource && isDest: // the live catalogue's immediate 4063
		return req, livestock.Invalid("the source and the destination are the same holding", livestock.FieldError{Code: livestock.CodeSameHolding,
			Source: "/content/destinationHolding", Value: t.Destination.String(), Message: "the destination is the source holding"})
	case !isSource && !isDest:
		return req, livestock.Invalid("userHolding is not part of the move", livestock.FieldError{Code: livestock.CodeUserHolding,
			Source: "/content/userHolding", Value: t.UserHolding.String(), Message: "userHolding must be the source or the destination holding"})
	}
	if errs := livestock.CheckTransferForm(t, func(c string) bool { return s.vocab.knownFlag(c, t.Species) }); len(errs) > 0 {
		return req, livestock.Invalid("the transfer breaks the movement rules", errs...)
	}
	req.MovementDate = d.at.Time()
	req.Species = t.Species
	req.TrackingID = deref(d.model.TrackingID)
	req.Holdings = holdingList(t.Source, dest)
	req.Content = normalised(d.model)
	return req, nil
}

// prepareReview checks a review at once: formats, and that the caller acts
// for the reviewing holding, and that the review names the movement's
// latest version.
func (s *Service) prepareReview(ctx context.Context, u livestock.User, content []byte) (store.Request, error) {
	r, w, err := decodeReview(content)
	if err != nil {
		return store.Request{}, err
	}
	var flagErrs []livestock.FieldError
	for i, f := range w.ProcessingFlags {
		if f.ProcessingFlagID != nil && *f.ProcessingFlagID != 0 && f.Name != "" { // 0: the id left unset
			if e := s.vocab.flagMismatch(int(*f.ProcessingFlagID), f.Name, fmt.Sprintf("/content/processingFlags/%d", i)); e != nil {
				flagErrs = append(flagErrs, *e)
			}
		}
	}
	if len(flagErrs) > 0 {
		return store.Request{}, livestock.Invalid("a processing flag's id and name differ", flagErrs...)
	}
	if !u.CanActFor(r.Holding) {
		return store.Request{}, forbidden("/content/holding", r.Holding.String(), "you may not act for holding "+r.Holding.String())
	}
	if err := s.checkMovement(ctx, u, r); err != nil {
		return store.Request{}, err
	}
	// The request's movementDate is the arrival as given, with its time
	// of day (the interface's movementDate has one), not its day alone.
	at := r.ArrivalDate.Time()
	if dt, err := livestock.ParseDateTime(w.ReviewMovement.ArrivalDate); err == nil {
		at = dt.Time()
	}
	if now := s.now(); future(at, now) {
		// As a transfer's time (futureTimes): a day alone is left to the
		// job's rule, which compares days.
		return store.Request{}, livestock.Invalid("the review names a time in the future", livestock.FieldError{Code: livestock.CodeDateFuture,
			Source: "/content/reviewMovement/arrivalDate", Value: w.ReviewMovement.ArrivalDate,
			Message: "the arrival date is in the future (now " + now.UTC().Format(time.RFC3339) + ")"})
	}
	return store.Request{MovementDate: at, TargetID: r.RequestID, TrackingID: deref(w.TrackingID),
		Holdings: holdingList(r.Holding), Content: normalised(w)}, nil
}

// prepareUndo checks an undo at once: only the submitter of a request may
// undo it (403 for anyone else who may see it; to one who may not, it is
// an id not in use: notyours.go).
func (s *Service) prepareUndo(ctx context.Context, u livestock.User, content []byte) (store.Request, error) {
	w, _, err := s.vocab.decodeUndo(content)
	if err != nil {
		return store.Request{}, err
	}
	req := store.Request{TargetID: w.UndoRequestID, TrackingID: deref(w.TrackingID), Content: normalised(w)}
	target, _, found, err := s.namedRequest(ctx, u, w.UndoRequestID)
	switch {
	case err != nil:
		return req, err
	case !found:
		return req, noSuchRequest(undoTarget, w.UndoRequestID)
	case target.UserName != u.Name:
		return req, notSubmitter(undoTarget, w.UndoRequestID, "undo")
	case !s.actsForTarget(u, target):
		return req, forbidden(undoTarget, fmt.Sprint(w.UndoRequestID), "you do not act now for "+targetHolding(target))
	}
	req.MovementDate, req.Species, req.Holdings = target.MovementDate, target.Species, target.Holdings
	return req, nil
}

// correctionTarget is the live name of the request a correction corrects.
const correctionTarget = "requestToBeUndone_ID"

// ownTarget refuses (403) a correction of another user's request that
// the caller may see; one they may not see is an id not in use (400,
// notyours.go). at is the member that named it, as the client sent it.
func (s *Service) ownTarget(ctx context.Context, u livestock.User, id int64, at, verb string) error {
	target, _, found, err := s.namedRequest(ctx, u, id)
	switch {
	case err != nil:
		return err
	case !found:
		return noSuchRequest(at, id)
	case target.UserName != u.Name:
		return notSubmitter(at, id, verb)
	case !s.actsForTarget(u, target):
		return forbidden(at, fmt.Sprint(id), "you do not act now for "+targetHolding(target))
	}
	return nil
}

// cphOf is the holding ref names: its CPH, or the CPH of the abattoir
// with its MHS; the zero CPH when no abattoir has that MHS.
func (s *Service) cphOf(ctx context.Context, ref livestock.HoldingRef) (livestock.CPH, error) {
	if ref.MHS.IsZero() {
		return ref.CPH, nil
	}
	h, err := s.store.HoldingByMHS(ctx, ref.MHS)
	if livestock.IsNotFound(err) {
		return livestock.CPH{}, nil
	}
	return h.CPH, err
}

func actsFor(u livestock.User, h livestock.HoldingRef) bool {
	if !h.MHS.IsZero() {
		return u.CanActForMHS(h.MHS)
	}
	return u.CanActFor(h.CPH)
}

// notSubmitter refuses to let a user verb (undo, correct) request id,
// which another user submitted: the live catalogues' own 14002.
func notSubmitter(source string, id int64, verb string) error {
	msg := "only the user who submitted a request may " + verb + " it"
	return &livestock.Error{Kind: livestock.KindForbidden, Detail: msg,
		Fields: []livestock.FieldError{{Code: livestock.CodeNotSubmitter, Source: source, Value: fmt.Sprint(id), Message: msg}}}
}

func forbidden(source, value, msg string) error {
	return &livestock.Error{Kind: livestock.KindForbidden, Detail: msg,
		Fields: []livestock.FieldError{{Code: livestock.CodeForbidden, Source: source, Value: value, Message: msg}}}
}

func holdingList(hs ...livestock.CPH) []livestock.CPH {
	var out []livestock.CPH
	for _, h := range hs {
		if !h.IsZero() {
			out = append(out, h)
		}
	}
	return out
}
