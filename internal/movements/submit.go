package movements

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/replay"
	"github.com/drover-registry/drover/internal/store"
)

// Posted is one POST of a movement request, as the HTTP layer hands it on.
type Posted struct {
	User          livestock.User
	Body          []byte // the whole body: {"content": …}
	CorrelationID string // the request's correlation id
	// CorrelationSource is where the caller sent it, as an error names it
	// ("header:X-Correlation-ID" or "header:LI-Correlation-Id").
	CorrelationSource string
	Replayable        bool   // the caller chose the correlation id: keep the answer for retries
	Hash              string // SHA-256 of method, path and body, hex
	// Render makes the answer to a stored request, inside the transaction
	// that stores it, so that the answer kept for replays is the one sent.
	Render func(store.Request) (status int, body []byte, err error)
}

// Answer is the response to a submission.
type Answer struct {
	Status    int
	Body      []byte
	Replayed  bool  // the same request was answered before: this is that answer
	RequestID int64 // the request stored or replayed; 0 in a reply kept before migration 00008 (its Body names it)
}

// Submit checks a submission as far as it can without the registry's
// records beyond the caller's own, then stores the request and the job
// that will apply it, in one transaction. A repeated correlation id with
// the same body answers as the first time and stores nothing.
//
// The kept answer is looked for only when the submission fails, not before
// every one: a retry fails, at the latest when its transaction saves its
// reply under the correlation id the first answer holds (or on its
// trackingId, or on a check that has changed its mind since), and its
// writes are undone with it. Every first submission is spared a read.
func (s *Service) Submit(ctx context.Context, typ store.RequestType, p Posted) (Answer, error) {
	a, content, err := s.submit(ctx, typ, p)
	if err != nil && p.Replayable && ctx.Err() == nil { // past its deadline, the request's own error says so
		if a, found, rerr := s.replay(ctx, typ, p, content); found || rerr != nil {
			return a, rerr
		}
	}
	return a, err
}

// submit stores the request; the content it returns, once the request is
// decoded, is the request as stored, for a retry's comparison.
func (s *Service) submit(ctx context.Context, typ store.RequestType, p Posted) (Answer, []byte, error) {
	content, err := openEnvelope(p.Body)
	if err != nil {
		return Answer{}, nil, err
	}
	var req store.Request
	switch typ {
	case store.RequestTransfer, store.RequestCorrection:
		req, err = s.prepareTransfer(ctx, typ, p.User, content)
	case store.RequestReview:
		req, err = s.prepareReview(ctx, p.User, content)
	case store.RequestUndo:
		req, err = s.prepareUndo(ctx, p.User, content)
	default:
		err = errors.New("movements: unknown request type " + string(typ))
	}
	if err != nil {
		return Answer{}, nil, err
	}
	now := s.stamp()
	req.Type, req.Status, req.UserName, req.CorrelationID = typ, store.StatusPending, p.User.Name, p.CorrelationID
	req.RequestDate, req.UpdatedDate = now, now

	var a Answer
	err = s.store.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
		id, err := tx.InsertRequest(ctx, req)
		if err != nil {
			if livestock.ErrorKind(err) == livestock.KindConflict {
				return livestock.Invalid("the trackingId was used before", livestock.FieldError{Code: livestock.CodeDuplicateTrack,
					Source: "/content/trackingId", Value: req.TrackingID, Message: fmt.Sprintf("this user has sent a %s with this trackingId before", typ)})
			}
			return err
		}
		req.ID, a.RequestID = id, id
		payload, _ := json.Marshal(jobPayload{RequestID: id})
		if _, err := tx.EnqueueJob(ctx, store.NewJob{Kind: JobKind, Payload: payload}); err != nil {
			return err
		}
		if a.Status, a.Body, err = p.Render(req); err != nil {
			return err
		}
		if p.Replayable {
			return tx.SaveReply(ctx, store.Reply{UserName: p.User.Name, CorrelationID: p.CorrelationID,
				RequestHash: p.Hash, Status: a.Status, Body: a.Body, CreatedAt: now, RequestID: strconv.FormatInt(id, 10)})
		}
		return nil
	})
	if err != nil {
		return Answer{}, req.Content, err
	}
	s.notify()
	return a, req.Content, nil
}

// replay finds the answer kept for the caller's correlation id. content is
// the retry as it would be stored (nil when it did not decode): a body
// written differently is the same request when its type and stored
// content are the first one's.
func (s *Service) replay(ctx context.Context, typ store.RequestType, p Posted, content []byte) (Answer, bool, error) {
	var same replay.Same
	if content != nil {
		same = func(ctx context.Context, kept store.Reply) (bool, error) {
			id, _ := strconv.ParseInt(kept.RequestID, 10, 64)
			if id == 0 {
				return false, nil
			}
			first, err := s.store.Request(ctx, id)
			if livestock.IsNotFound(err) {
				return false, nil
			}
			return err == nil && first.Type == typ && first.UserName == p.User.Name && bytes.Equal(first.Content, content), err
		}
	}
	r, found, err := replay.Find(ctx, s.store, p.User.Name, p.CorrelationID, p.CorrelationSource, p.Hash, same)
	if !found || err != nil {
		return Answer{}, found, err
	}
	id, _ := strconv.ParseInt(r.RequestID, 10, 64) // 0 when none was kept
	return Answer{Status: r.Status, Body: r.Body, RequestID: id, Replayed: true}, true, nil
}
