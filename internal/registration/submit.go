package registration

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"

	"github.com/google/uuid"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/replay"
	"github.com/drover-registry/drover/internal/store"
)

// Posted is one POST /animals, as the HTTP layer hands it on.
type Posted struct {
	User          livestock.User
	Body          []byte
	Async         bool
	CorrelationID string
	// CorrelationSource is where the caller sent it, as an error names it
	// ("header:X-Correlation-ID" or "header:LI-Correlation-Id").
	CorrelationSource string
	Replayable        bool   // the caller chose the correlation id: keep the answer for retries
	Hash              string // SHA-256 of method, path and body, hex
}

// Answer is the response to a submission.
type Answer struct {
	Status    int
	Body      []byte
	RequestID string
	Replayed  bool
}

// Completed is the 200 body of a synchronous registration (the live
// AnimalResponse), and the result of a completed asynchronous one.
// Warnings are Drover's: what to look at although the animal is registered.
type Completed struct {
	Identifier string    `json:"identifier"`
	Links      Links     `json:"links"`
	Warnings   []Problem `json:"warnings"`
}

// Links are where to read what a request made, written as the live
// service writes them: a path under the interface's base (/v1).
type Links struct {
	Self string `json:"self"`
}

// Problem is one error or warning on the wire: the live service's items
// (code, detail, source, value), with Drover's message beside detail.
type Problem struct {
	Code    livestock.Code `json:"code"`
	Detail  string         `json:"detail"`
	Message string         `json:"message"`
	Source  string         `json:"source,omitempty"`
	Value   string         `json:"value,omitempty"`
}

func problemOf(f livestock.FieldError) Problem {
	return Problem{Code: f.Code, Detail: f.Message, Message: f.Message, Source: f.Source, Value: f.Value}
}

// Queued is the 202 body of an asynchronous registration: the live
// requestStatusUrl, the interface document's requestid, and the live
// movements service's id, requestStatus and requestDate.
type Queued struct {
	RequestStatusURL string `json:"requestStatusUrl"`
	RequestIDDoc     string `json:"requestid"`
	ID               string `json:"id"`
	RequestStatus    string `json:"requestStatus"`
	RequestDate      string `json:"requestDate"`
}

// Submit registers an animal (sync) or queues the registration (async).
// Format problems and acting for another's holding are refused at once in
// both modes; in sync mode a broken rule is a 400 and nothing is kept.
//
// The kept answer of a retried submission is looked for only when the
// submission fails, not before every one: a retry fails, at the latest
// when its transaction saves its reply under the correlation id the first
// answer holds (in sync mode, when the rules find its animal registered),
// and its writes are undone with it. A twin sent at the same moment is
// answered the same way.
func (s *Service) Submit(ctx context.Context, p Posted) (Answer, error) {
	a, stored, err := s.submit(ctx, p)
	if err != nil && p.Replayable && ctx.Err() == nil { // past its deadline, the request's own error says so
		if a, found, rerr := s.replay(ctx, p, stored); found || rerr != nil {
			return a, rerr
		}
	}
	return a, err
}

// submit registers or queues; the body it returns, once the request is
// decoded, is the request as stored, for a retry's comparison.
func (s *Service) submit(ctx context.Context, p Posted) (Answer, []byte, error) {
	r, w, err := s.decode(p.Body)
	if err != nil {
		return Answer{}, nil, err
	}
	if !p.User.CanActFor(r.RegistrationSite) {
		// A 400 naming the site, not a 403: the live definition declares no
		// 403 on POST /animals, and animal-registration.md binds none.
		return Answer{}, nil, &livestock.Error{Kind: livestock.KindInvalid, Detail: "you may not register animals at " + r.RegistrationSite.String(),
			Fields: []livestock.FieldError{{Code: livestock.CodeRegistrationHolder, Source: "/registration/site/identifiers/0/identifier",
				Value: r.RegistrationSite.String(), Message: "you do not act for this holding"}}}
	}
	now := s.now().UTC()
	stored, _ := json.Marshal(w)
	reg := store.Registration{ID: uuid.NewString(), UserName: p.User.Name, Async: p.Async, Status: store.RegistrationPending,
		RequestDate: now, UpdatedDate: now, NextPollAt: now.Add(s.retryAfter), CorrelationID: p.CorrelationID, Body: stored}
	var a Answer
	err = s.store.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
		if p.Async {
			payload, _ := json.Marshal(jobPayload{RegistrationID: reg.ID})
			if err := tx.InsertRegistration(ctx, reg); err != nil {
				return err
			}
			if _, err := tx.EnqueueJob(ctx, store.NewJob{Kind: JobKind, Payload: payload}); err != nil {
				return err
			}
			a = s.queued(reg, p)
		} else {
			errs, warns, err := s.register(ctx, tx, r, w, p.User.Name, now)
			if err != nil {
				return err
			}
			if len(errs) > 0 {
				return livestock.Invalid("the registration breaks the registry's rules; nothing was kept", errs...)
			}
			reg.Status, reg.Identifier, reg.Warnings = store.RegistrationCompleted, r.Tag.String(), warns
			if err := tx.InsertRegistration(ctx, reg); err != nil {
				return err
			}
			body, _ := json.Marshal(completed(reg))
			a = Answer{Status: 200, Body: body, RequestID: reg.ID}
		}
		if !p.Replayable {
			return nil
		}
		return tx.SaveReply(ctx, store.Reply{UserName: p.User.Name, CorrelationID: p.CorrelationID, RequestHash: p.Hash,
			Status: a.Status, Body: a.Body, CreatedAt: now, RequestID: reg.ID})
	})
	if err != nil {
		return Answer{}, stored, err
	}
	if p.Async {
		s.notify()
	}
	return a, stored, nil
}

func (s *Service) queued(reg store.Registration, p Posted) Answer {
	body, _ := json.Marshal(Queued{RequestIDDoc: reg.ID, ID: reg.ID, RequestStatus: "Pending",
		RequestDate: reg.RequestDate.Format("2006-01-02T15:04:05Z07:00"), RequestStatusURL: StatusPath(reg.ID)})
	return Answer{Status: 202, Body: body, RequestID: reg.ID}
}

func completed(reg store.Registration) Completed {
	c := Completed{Identifier: reg.Identifier, Links: Links{Self: AnimalPath(reg.Identifier)}, Warnings: []Problem{}}
	for _, w := range reg.Warnings {
		c.Warnings = append(c.Warnings, problemOf(w))
	}
	return c
}

// AnimalPath is the path of an animal's record under the interface's
// base, as the live service's links write it (/animals/UK123450600001).
func AnimalPath(identifier string) string { return "/animals/" + url.PathEscape(identifier) }

// StatusPath is the path of a request's status under the interface's base.
func StatusPath(id string) string { return "/requeststatus/" + id }

// replay finds the answer kept for the caller's correlation id. stored is
// the retry as it would be stored (nil when it did not decode): a body
// written differently is the same request when its mode and stored body
// are the first one's.
func (s *Service) replay(ctx context.Context, p Posted, stored []byte) (Answer, bool, error) {
	var same replay.Same
	if stored != nil {
		same = func(ctx context.Context, kept store.Reply) (bool, error) {
			if kept.RequestID == "" {
				return false, nil
			}
			first, err := s.store.Registration(ctx, kept.RequestID)
			if livestock.IsNotFound(err) {
				return false, nil
			}
			return err == nil && first.Async == p.Async && first.UserName == p.User.Name && bytes.Equal(first.Body, stored), err
		}
	}
	r, found, err := replay.Find(ctx, s.store, p.User.Name, p.CorrelationID, p.CorrelationSource, p.Hash, same)
	if !found || err != nil {
		return Answer{}, found, err
	}
	id := r.RequestID
	if id == "" { // kept before migration 00008: a 202 body names it, a 200 does not
		var ids struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(r.Body, &ids)
		id = ids.ID
	}
	return Answer{Status: r.Status, Body: r.Body, RequestID: id, Replayed: true}, true, nil
}
