package store

import (
	"context"
	"time"
)

// HealthStore is what the operator and the metrics see of a store: which
// database it is, whether it answers, and how its group commit is doing.
type HealthStore interface {
	// Dialect names the database: "sqlite" or "postgres".
	Dialect() string
	// GroupStats counts the shared transactions (InSharedTx, RunJob,
	// RetryJob) this process has committed: for metrics.
	GroupStats() GroupStats
	// Ready reports nil when the database answers and every migration has
	// been applied.
	Ready(ctx context.Context) error
	// Warnings names the database's own settings under which a promise
	// of Drover's does not hold (acknowledged writes kept, the job queue
	// kept fast), each in a sentence for the operator's log. A database
	// whose settings Drover makes itself (SQLite) has none.
	Warnings(ctx context.Context) ([]string, error)
	Close() error
}

// GroupStats are running totals of the group commit since the store
// opened. Calls over commits is the mean group; Commit.Sum over commits,
// the mean commit (an fsync on SQLite, a WAL flush and a round trip on
// PostgreSQL).
type GroupStats struct {
	Commits int64 // shared transactions committed
	Calls   int64 // calls whose writes those commits kept
	Failed  int64 // shared transactions that could not commit
	// RoundTrips is what the shared transactions sent between BEGIN and
	// COMMIT: each statement sent alone, and each batch of deferred
	// writes. On PostgreSQL each is a round trip a committer waits for.
	RoundTrips int64
	// Commit is the committed transactions by the time their COMMIT took:
	// its tail is the disk's (a mean hides a stall of a second among
	// thousands of fast commits). Group is the same transactions by the
	// time they held their connection, from BEGIN to the end of COMMIT:
	// about what a caller waits for once its group has begun.
	Commit, Group Histogram
}

// GroupBuckets are the upper bounds of the histograms of GroupStats.
var GroupBuckets = [...]time.Duration{
	250 * time.Microsecond, 500 * time.Microsecond, time.Millisecond, 2500 * time.Microsecond,
	5 * time.Millisecond, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2500 * time.Millisecond,
}

// Histogram counts durations by GroupBuckets: Counts[i] those over the
// bound before GroupBuckets[i] and at most it, the last those over every
// bound. Sum is their total.
type Histogram struct {
	Counts [len(GroupBuckets) + 1]int64
	Sum    time.Duration
}
