package movements

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

type jobPayload struct {
	RequestID int64 `json:"requestId"`
}

// outcome is what applying a request decided.
type outcome struct {
	errs, warns []livestock.FieldError
	queueFail   bool // the job gave up: nothing about the request itself was decided
}

// status is the live status an outcome ends its request in
// (docs/request-status.md): a request applies in whole or not at all, so
// it never ends CompletedError.
func (o outcome) status() store.RequestStatus {
	switch {
	case o.queueFail:
		return store.StatusQueueFail
	case len(o.errs) > 0:
		return store.StatusFail
	case len(o.warns) > 0:
		return store.StatusCompletedWarning
	}
	return store.StatusSuccess
}

func failed(errs ...livestock.FieldError) (outcome, error) { return outcome{errs: errs}, nil }

// failedUnless is err when there is one (the job tries again), else the
// request failed with errs.
func failedUnless(err error, errs ...livestock.FieldError) (outcome, error) {
	if err != nil {
		return outcome{}, err
	}
	return failed(errs...)
}

// apply is the job: it applies one request inside the transaction that
// claimed the job, so its effects and its final status commit together,
// once. A request already decided is left alone, so a repeated job is
// harmless.
func (s *Service) apply(ctx context.Context, tx store.Tx, j store.Job) error {
	var p jobPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return jobs.Permanent(fmt.Errorf("job %d: payload: %w", j.ID, err))
	}
	if err := queueForMoves(ctx, tx); err != nil { // lockorder.go
		return err
	}
	if err := s.readAhead(ctx, tx, p.RequestID); err != nil {
		return err
	}
	req, err := tx.LockRequest(ctx, p.RequestID)
	if livestock.IsNotFound(err) {
		return jobs.Permanent(fmt.Errorf("job %d: request %d does not exist", j.ID, p.RequestID))
	}
	if err != nil || req.Status != store.StatusPending {
		return err
	}
	var out outcome
	switch req.Type {
	case store.RequestTransfer, store.RequestCorrection:
		out, err = s.applyTransfer(ctx, tx, &req)
	case store.RequestReview:
		out, err = s.applyReview(ctx, tx, &req)
	case store.RequestUndo:
		out, err = s.applyUndo(ctx, tx, &req)
	default:
		err = jobs.Permanent(fmt.Errorf("request %d: unknown type %q", req.ID, req.Type))
	}
	if err != nil {
		return err // nothing of this attempt is kept: retried, or on the last abandoned
	}
	req.Status = out.status()
	if !req.Status.Applied() {
		req.UndoSupported = false
	}
	req.Errors, req.Warnings = boundErrors(out.errs), out.warns
	req.UpdatedDate = s.stamp()
	return tx.UpdateRequest(ctx, req)
}

// MaxStoredErrors is how many errors a request stores at most. A transfer
// of 30,000 unknown tags has 30,000 errors; stored whole they made a
// 4.5 MB record and every listing that showed it as large. The first
// hundred say what is wrong as well as all of them would.
const MaxStoredErrors = 100

// boundErrors is errs cut to MaxStoredErrors, followed, when any were
// cut, by one error with the live code 40 (too many validation errors)
// saying how many are not listed.
func boundErrors(errs []livestock.FieldError) []livestock.FieldError {
	if len(errs) <= MaxStoredErrors {
		return errs
	}
	more := len(errs) - MaxStoredErrors
	return append(slices.Clip(errs[:MaxStoredErrors]), livestock.FieldError{Code: livestock.CodeTooManyErrors,
		Message: fmt.Sprintf("there have been too many validation errors in this request: %d more are not listed; resolve these and submit it again", more)})
}

// abandon ends QueueFail a request whose job failed for good
// (jobs.Abandon): the attempt's writes were rolled back, so nothing of it
// was applied, and the fault is the service's, not the request's.
func (s *Service) abandon(ctx context.Context, tx store.Tx, j store.Job, _ error) error {
	var p jobPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return nil // it names nothing to end; the job's own error says why
	}
	req, err := tx.LockRequest(ctx, p.RequestID)
	if livestock.IsNotFound(err) {
		return nil // nothing to end; the job's own error says why
	}
	if err != nil || req.Status != store.StatusPending {
		return err
	}
	out := outcome{errs: []livestock.FieldError{{Code: livestock.CodeInternal,
		Message: "the request could not be processed; please submit it again"}}, queueFail: true}
	req.Status, req.UndoSupported, req.Warnings, req.Errors = out.status(), false, nil, out.errs
	req.UpdatedDate = s.stamp()
	return tx.UpdateRequest(ctx, req)
}

// movementOf follows a correction back to the transfer whose movement it
// corrects: a movement's id is its original transfer request's id.
func movementOf(ctx context.Context, tx store.MovementReader, r store.Request) (int64, error) {
	for range 1000 {
		if r.Type == store.RequestTransfer {
			return r.ID, nil
		}
		if r.Type != store.RequestCorrection || r.TargetID == 0 {
			return 0, livestock.Errorf(livestock.KindNotFound, "request %d has no movement", r.ID)
		}
		var err error
		if r, err = tx.Request(ctx, r.TargetID); err != nil {
			return 0, err
		}
	}
	return 0, livestock.Errorf(livestock.KindNotFound, "correction chain too long")
}

// DocumentType is the code, in standing data documentType, of the
// movement document Drover issues. (Until the eighth session of
// 2026-11-25 it was eAML2, the English pig licence, on every movement.)
const DocumentType = "Drover"

// DocumentRef is the reference of a movement's document. References
// issued before DocumentType changed read DRV-eAML2-…; they still name
// their movements.
func DocumentRef(movementID int64) string { return fmt.Sprintf("DRV-%010d", movementID) }
