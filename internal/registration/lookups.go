package registration

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Status is the answer to GET /requeststatus/{requestId}: the live
// RequestStatus, whose status is Pending, Success or Fail, with what a
// registration made (identifier, links) at the top level once Success, and
// the live problem details' title, detail and errors once Fail. requestId,
// requestDate, updatedDate and result are Drover's, kept for its clients.
type Status struct {
	Status      string    `json:"status"`
	Identifier  string    `json:"identifier,omitempty"`
	Links       *Links    `json:"links,omitempty"`
	Warnings    []Problem `json:"warnings,omitempty"`
	Title       string    `json:"title,omitempty"`
	Detail      string    `json:"detail,omitempty"`
	Errors      []Problem `json:"errors,omitempty"`
	RequestID   string    `json:"requestId"`
	RequestDate string    `json:"requestDate"`
	UpdatedDate string    `json:"updatedDate"`
	Result      any       `json:"result"` // nil while Pending; Completed or Failure after
}

// Failure is a failed registration's outcome: every rule broken.
type Failure struct {
	Errors []Problem `json:"errors"`
}

// The request statuses the registration interface answers with: the live
// values, which the stored ones map to (wireStatus).
const (
	StatusPending = "Pending"
	StatusSuccess = "Success"
	StatusFail    = "Fail"
)

func wireStatus(st store.RegistrationStatus) string {
	switch st {
	case store.RegistrationCompleted:
		return StatusSuccess
	case store.RegistrationFailed:
		return StatusFail
	}
	return StatusPending
}

// RequestStatus answers a poll of a registration: 404 when unknown or
// another user's, the two alike (the live definition declares 404 and no
// 403 here, and animal-registration.md binds neither; the inspector may
// read any), 429 when polled sooner than the retry-after time after its
// 202 or after the previous allowed poll. A refused poll does not move the time, so a client that polls too
// fast is not locked out for longer. The inspector's reads are not polls
// of the submitter's: they neither wait for nor take the submitter's turn.
func (s *Service) RequestStatus(ctx context.Context, u livestock.User, id string) (Status, time.Duration, error) {
	id = strings.ToLower(id) // ids are made in lower case; A-F is the same id
	if _, err := uuid.Parse(id); err != nil || len(id) != len(uuid.Nil.String()) {
		// Ids are UUIDs as made: any other value names no request, and is
		// answered as an unknown one (the live definition declares no 400).
		return Status{}, 0, livestock.Errorf(livestock.KindNotFound, "no registration %q", id)
	}
	reg, err := s.store.Registration(ctx, id)
	if err != nil {
		return Status{}, 0, err
	}
	if reg.UserName != u.Name && u.Role != livestock.RoleInspector {
		return Status{}, 0, livestock.Errorf(livestock.KindNotFound, "no registration %q", id) // as the store says of an unknown one
	}
	now, ok := s.now().UTC(), true
	if reg.UserName == u.Name {
		if reg, ok, err = s.store.TakePoll(ctx, id, now, now.Add(s.retryAfter)); err != nil {
			return Status{}, 0, err
		}
	}
	if !ok {
		wait := reg.NextPollAt.Sub(now)
		return Status{}, wait, &livestock.Error{Kind: livestock.KindTooMany, Detail: "polled too soon: wait for the time in Retry-After",
			Fields: []livestock.FieldError{{Code: livestock.CodePollTooSoon, Source: "path:requestId", Value: id,
				Message: "the status of a request may be read once per retry-after interval"}}}
	}
	st := Status{RequestID: reg.ID, Status: wireStatus(reg.Status), RequestDate: stamp(reg.RequestDate), UpdatedDate: stamp(reg.UpdatedDate)}
	switch reg.Status {
	case store.RegistrationCompleted:
		c := completed(reg)
		st.Identifier, st.Links, st.Warnings, st.Result = c.Identifier, &c.Links, c.Warnings, c
	case store.RegistrationFailed:
		f := Failure{Errors: []Problem{}}
		for _, e := range reg.Errors {
			f.Errors = append(f.Errors, problemOf(e))
		}
		st.Title, st.Detail, st.Errors, st.Result = "Validation Error", "The request is invalid: nothing was registered.", f.Errors, f
	}
	return st, s.retryAfter, nil
}

// Animal returns a registered animal to the keeper of its holding or the
// inspector. To anyone else it is not there: another keeper's animal is
// the same 404 as a tag no animal wears, so that asking tells a keeper
// nothing of what another keeper's holdings hold (issue 20).
func (s *Service) Animal(ctx context.Context, u livestock.User, identifier string) (store.Animal, error) {
	// A printed sheep tag can also read as a cattle tag: try each form
	// the identifier reads as until one is registered and the caller's.
	for _, form := range livestock.IdentifierForms(identifier) {
		a, err := s.store.Animal(ctx, form)
		switch {
		case livestock.IsNotFound(err):
		case err != nil:
			return store.Animal{}, err
		case u.CanRead(a.CPH):
			return a, nil
		}
	}
	return store.Animal{}, livestock.Errorf(livestock.KindNotFound, "no animal %s is registered", identifier)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
