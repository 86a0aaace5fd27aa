package store

import (
	"context"
	"time"
)

// TxStore runs a caller's writes in one transaction: InTx lets a caller
// group its own writes with a job so that both are committed, or neither,
// and InSharedTx does the same for many concurrent callers at the cost of
// one commit.
type TxStore interface {
	// InTx runs fn in one write transaction, committed when fn returns nil.
	InTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	// InSharedTx is InTx for many small writers at once (group commit): fn
	// may share its transaction with the fns of other callers that arrive
	// at the same time, so that they pay for one commit (an fsync, a WAL
	// flush) between them. Each fn runs inside its own SAVEPOINT: an error
	// (or a panic) in fn rolls back only fn's own writes and is returned
	// only to its caller, as it is (a panic as an error). The transaction
	// commits once for the whole group, and InSharedTx returns nil only
	// after that commit succeeded, so an acknowledged write is durable; if
	// the commit fails, every caller whose fn succeeded gets that error.
	//
	// A caller whose ctx ends before its fn has started gets ctx's error
	// (KindUnavailable) and fn never runs. Once fn has started its outcome
	// stands, and InSharedTx waits for it whatever ctx does, so that an
	// error always means fn's writes were not committed. fn is given ctx's
	// values but not its cancellation: cancelling one statement would
	// abort the transaction the whole group shares. fn must not block on
	// anything but the database, and must not call other methods of the
	// store: it holds the writer. It runs on another goroutine, so a test
	// must not call t.Fatal in it. After Close, InSharedTx fails at once.
	// The shared transaction ends at the latest deadline of the callers
	// sharing it (never, if one has none), so that a database that stops
	// answering mid-statement cannot hold them past it: it is rolled back
	// and each caller gets its deadline's error (KindUnavailable). Jobs
	// (RunJob, RetryJob) sharing it with InSharedTx callers do not extend
	// it: they are rolled back with the rest and run again later.
	//
	// fn may be called more than once: when another fn of its group
	// fails, the group's transaction is rolled back and run again, each fn
	// then in a savepoint of its own. Only the last call's writes and
	// outcome stand, so fn must set what it hands back to its caller afresh
	// on every call.
	InSharedTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
}

// Tx is the write side of one transaction: each concern adds its writes
// here, so that a request, its job and its audit line commit as one.
type Tx interface {
	// Audit appends a line to the audit log.
	Audit(ctx context.Context, a AuditEntry) error

	// Jobs (jobs.go).
	JobTx
	// Movement requests and movements (movements.go).
	MovementTx
	// Replies kept for retries (replies.go).
	ReplyTx
	// Animal registrations (registrations.go).
	RegistrationTx
}

// AuditEntry records who did what to which record.
type AuditEntry struct {
	At            time.Time
	UserName      string
	Action        string
	Subject       string // the record acted on, e.g. "job:42" or "TransferRequests(7)"
	CorrelationID string
	Detail        string
}
