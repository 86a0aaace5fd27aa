// Package replay holds the rule for duplicate HTTP requests, shared by
// both interfaces: a POST whose caller-chosen correlation id was sent
// before by the same user gets the first answer when the request is the
// same, and a 400 (V004) when it is not. The answers themselves are kept
// by the store, in the transaction that made them.
//
// "The same" is first the same bytes (a hash of method, path and body);
// a retry whose client wrote the body again, with other spacing or its
// members in another order, is the same request when it decodes to what
// the first one stored (Same).
package replay

import (
	"context"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Replies is the part of the store this rule reads.
type Replies interface {
	Reply(ctx context.Context, userName, correlationID string) (store.Reply, error)
}

// Same reports whether the request a kept answer was given for is the one
// being retried, as the service stored it; it is asked only when the
// bytes differ, so a retry sent as first sent costs no read.
type Same func(ctx context.Context, kept store.Reply) (bool, error)

// Find returns the answer kept for user's correlation id, when the request
// (its hash, or else same) is the one answered; found is false when none
// was kept. same may be nil: then only the bytes count. source is where
// the id was sent, for the error to name; "" is "header:X-Correlation-ID".
func Find(ctx context.Context, st Replies, user, correlationID, source, hash string, same Same) (r store.Reply, found bool, err error) {
	r, err = st.Reply(ctx, user, correlationID)
	if livestock.IsNotFound(err) {
		return store.Reply{}, false, nil
	}
	if err != nil {
		return store.Reply{}, false, err
	}
	if source == "" {
		source = "header:X-Correlation-ID"
	}
	if r.RequestHash != hash {
		if same != nil {
			ok, err := same(ctx, r)
			if err != nil {
				return store.Reply{}, true, err
			}
			if ok {
				return r, true, nil
			}
		}
		return store.Reply{}, true, livestock.Invalid("the correlation id was used before for a different request", livestock.FieldError{
			Code: livestock.CodeReplayMismatch, Source: source, Value: correlationID,
			Message: "this correlation id was sent before with a different request; use a new one for a new request"})
	}
	return r, true, nil
}
