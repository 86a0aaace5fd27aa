package store

import (
	"context"
	"time"
)

// JobStore is the queue of durable background work (internal/jobs): a
// request enqueues its job in the transaction that stores it (JobTx), and
// a runner claims and applies due jobs here.
type JobStore interface {
	// RunJob claims the oldest due job of one of kinds and calls fn inside
	// the claiming transaction, so a job's effects and its completion are
	// committed together: a job is applied exactly once, whatever crashes.
	// When fn returns nil the job is marked done; when it returns an error
	// fn's writes are rolled back, the job is left as it was, and the error
	// is returned: the caller then records the failure (RetryJob), and
	// until it does this store's claims pass over the job, so that it is
	// not taken again before its backoff. ran is false when no job was
	// due. The claim, fn and the completion run as one InSharedTx call,
	// with its contract: they may share a transaction and its commit with
	// other jobs and submissions, RunJob returns only after that commit, fn
	// is given ctx's values but not its cancellation, and fn must not call
	// other methods of the store that write. As with InSharedTx, fn may be called more than once, for
	// the same job or, on PostgreSQL, another; only the last call stands.
	// Replicas on PostgreSQL skip jobs another holds.
	RunJob(ctx context.Context, kinds []string, now time.Time, fn func(ctx context.Context, tx Tx, j Job) error) (ran bool, err error)
	// RetryJob counts a failed attempt and makes the job due again at runAt,
	// or marks it failed when final is true. It may share a commit as
	// InSharedTx does.
	RetryJob(ctx context.Context, id int64, runAt time.Time, lastError string, final bool) error
	// JobBacklog reports the jobs available (the queue) and failed, on
	// the claim index alone, whatever the number done: for metrics and
	// the bound on queued jobs.
	JobBacklog(ctx context.Context) (map[JobState]int, error)
	// DeleteDoneJobsBefore deletes at most limit done jobs that were due
	// before before, oldest first, and reports how many it deleted: a done
	// job has served its purpose (its request's row holds the outcome),
	// and kept for ever they would grow the table by one row a request
	// (internal/retention). Available and failed jobs are never deleted.
	// Like DeleteRepliesBefore it works in bounded batches, and replicas
	// may run it at the same time.
	DeleteDoneJobsBefore(ctx context.Context, before time.Time, limit int) (deleted int, err error)
}

// JobTx is the jobs part of Tx.
type JobTx interface {
	// EnqueueJob adds a job, due at j.RunAt (now when zero).
	EnqueueJob(ctx context.Context, j NewJob) (int64, error)
	// JobsAhead returns to a RunJob fn the jobs claimed with its own for
	// the calls of its group still to come, so that it may read ahead for
	// them in one statement (MovementTx.LockRequests). Only the fn whose
	// claim took them is given them; empty when the transaction claims
	// one job at a time.
	JobsAhead() []Job
}

// JobState is where a job is in its life.
type JobState string

const (
	JobAvailable JobState = "available" // due now or later
	JobDone      JobState = "done"      // applied
	JobFailed    JobState = "failed"    // gave up after its last attempt
)

// NewJob is a job to enqueue.
type NewJob struct {
	Kind        string
	Payload     []byte // JSON, read by the job's handler
	RunAt       time.Time
	MaxAttempts int // 0 means the default, 25
}

// Job is a stored job.
type Job struct {
	ID          int64
	Kind        string
	Payload     []byte
	State       JobState
	Attempts    int // failed attempts so far
	MaxAttempts int
	RunAt       time.Time
	LastError   string
	CreatedAt   time.Time
	FinishedAt  time.Time // zero until done or failed
}
