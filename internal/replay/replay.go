// Package replay holds the rule for duplicate HTTP requests, shared by
// both interfaces: a POST whose caller-chosen correlation id was sent
// before by the same user gets the first answer when the request is the
// same, and a 400 (V004) when it is not. The answers themselves are kept
// by the store, in the transaction that made them.
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

// Find returns the answer kept for user's correlation id, when the request
// (its hash) is the one answered; found is false when none was kept.
// source is where the id was sent, for the error to name; "" is
// "header:X-Correlation-ID".
func Find(ctx context.Context, st Replies, user, correlationID, source, hash string) (r store.Reply, found bool, err error) {
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
		return store.Reply{}, true, livestock.Invalid("the correlation id was used before for a different request", livestock.FieldError{
			Code: livestock.CodeReplayMismatch, Source: source, Value: correlationID,
			Message: "this correlation id was sent before with a different request; use a new one for a new request"})
	}
	return r, true, nil
}
