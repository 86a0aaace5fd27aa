package store

import (
	"context"
	"time"
)

// ReplyStore keeps the answers given to requests that carried a
// correlation id (internal/replay), so that a retry gets the first
// answer: movement requests and registrations alike save theirs in the
// transaction that made them (ReplyTx).
type ReplyStore interface {
	Reply(ctx context.Context, userName, correlationID string) (Reply, error)
	// DeleteRepliesBefore deletes at most limit replies created before
	// before, oldest first, and reports how many it deleted: replies are
	// kept for a retention period, not for ever (internal/retention). It
	// deletes in bounded batches so that one call never holds the writer
	// for long; a caller repeats it until it deletes fewer than limit.
	// Deleting a reply that another caller deleted first is no error, so
	// replicas may run it at the same time.
	DeleteRepliesBefore(ctx context.Context, before time.Time, limit int) (deleted int, err error)
}

// ReplyTx is the replies part of Tx.
type ReplyTx interface {
	// SaveReply stores a reply; one that exists for the same user and
	// correlation id is KindConflict.
	SaveReply(ctx context.Context, r Reply) error
}

// Reply is the answer given to a request that carried a correlation id,
// kept so that a retry of the same request gets the same answer.
type Reply struct {
	UserName      string
	CorrelationID string
	RequestHash   string // SHA-256 of method, path and body, hex
	Status        int
	Body          []byte
	CreatedAt     time.Time
	// RequestID names the request answered (a movement request's number,
	// a registration's UUID), for the headers a replay repeats; '' when
	// none was stored, as in replies kept before migration 00008.
	RequestID string
}
