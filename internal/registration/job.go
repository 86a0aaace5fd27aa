package registration

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

type jobPayload struct {
	RegistrationID string `json:"registrationId"`
}

// applyJob decides a queued registration inside the transaction that
// claimed its job: the animal and the Completed status commit together, so
// Completed is never reported before the animal can be read.
func (s *Service) applyJob(ctx context.Context, tx store.Tx, j store.Job) error {
	var p jobPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return jobs.Permanent(fmt.Errorf("job %d: payload: %w", j.ID, err))
	}
	reg, err := tx.LockRegistration(ctx, p.RegistrationID)
	if livestock.IsNotFound(err) {
		return jobs.Permanent(fmt.Errorf("job %d: registration %s does not exist", j.ID, p.RegistrationID))
	}
	if err != nil || reg.Status != store.RegistrationPending {
		return err
	}
	var errs, warns []livestock.FieldError
	r, w, derr := s.decode(reg.Body)
	if derr != nil {
		errs = fieldsOf(derr)
	} else {
		errs, warns, err = s.register(ctx, tx, r, w, reg.UserName, reg.RequestDate)
		if err != nil {
			return err // nothing of this attempt is kept: retried, or on the last abandoned
		}
	}
	reg.Status, reg.Warnings, reg.UpdatedDate = store.RegistrationCompleted, warns, s.now().UTC()
	if len(errs) > 0 {
		reg.Status, reg.Errors = store.RegistrationFailed, errs
	} else {
		reg.Identifier = r.Tag.String()
	}
	return tx.UpdateRegistration(ctx, reg)
}

// abandonJob ends Failed a registration whose job failed for good
// (jobs.Abandon): the attempt's writes were rolled back, so no animal was
// registered.
func (s *Service) abandonJob(ctx context.Context, tx store.Tx, j store.Job, _ error) error {
	var p jobPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return nil // it names nothing to end; the job's own error says why
	}
	reg, err := tx.LockRegistration(ctx, p.RegistrationID)
	if livestock.IsNotFound(err) {
		return nil // nothing to end; the job's own error says why
	}
	if err != nil || reg.Status != store.RegistrationPending {
		return err
	}
	reg.Status, reg.Warnings, reg.UpdatedDate = store.RegistrationFailed, nil, s.now().UTC()
	reg.Errors = []livestock.FieldError{{Code: livestock.CodeInternal, Message: "the registration could not be processed; please submit it again"}}
	return tx.UpdateRegistration(ctx, reg)
}

func fieldsOf(err error) []livestock.FieldError {
	if e, ok := err.(*livestock.Error); ok && len(e.Fields) > 0 {
		return e.Fields
	}
	return []livestock.FieldError{{Code: livestock.CodeSchema, Message: err.Error()}}
}
