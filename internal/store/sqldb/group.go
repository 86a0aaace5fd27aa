package sqldb

import (
	"context"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// Group commit: InSharedTx, RunJob and RetryJob hand their fns to package
// groupcommit, which runs many callers' fns in one transaction and commits
// once for all of them, under the contract its doc states (fn may run
// more than once, on a committer's goroutine). What is Drover's stays
// here: each pass's fns share one tx (the reads it keeps, groupcache.go;
// the jobs it claims ahead, jobclaim.go), a submission's key orders the
// pass with savepoints (InsertRequest), and RunJob's calls are tagged so
// that the first claim of a pass takes a job for each (jobclaim.go).

// startGroup starts the committers of s.
func (s *Store) startGroup() {
	s.group = groupcommit.New(groupcommit.Config[store.Tx]{
		Pool:         s.w,
		Committers:   s.tune.Committers,
		Pass:         func(gt *groupcommit.Tx) store.Tx { return &tx{s: s, tx: gt} },
		ConnDeadline: s.tune.ConnDeadline,
		ExecBatch:    s.tune.ExecBatch,
		Error:        s.groupError,
		Buckets:      store.GroupBuckets[:],
	})
}

// groupError names a failure of the group's own as InSharedTx's, with its
// kind.
func (s *Store) groupError(op string, err error) error {
	if op == "" {
		return s.d.Error("InSharedTx", err)
	}
	return s.d.Error("InSharedTx: "+op, err)
}

// GroupStats reports the group commit's totals; see store.Store.
func (s *Store) GroupStats() store.GroupStats {
	g := s.group.Stats()
	h := func(g groupcommit.Histogram) store.Histogram {
		out := store.Histogram{Sum: g.Sum}
		copy(out.Counts[:], g.Counts)
		return out
	}
	return store.GroupStats{Commits: g.Commits, Calls: g.Calls, Failed: g.Failed, RoundTrips: g.Statements + g.Batches,
		Commit: h(g.Commit), Group: h(g.Group)}
}

// Committers reports how many shared transactions may run at once.
func (s *Store) Committers() int { return s.group.Committers() }

// InSharedTx runs fn in a transaction it may share with other callers'
// fns; see store.Store and package groupcommit.
func (s *Store) InSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) error {
	return s.inSharedTx(ctx, fn, false, false)
}

// inSharedTx is InSharedTx, for a job's fn when background is set; job
// marks RunJob's, which claims a job (jobclaim.go).
func (s *Store) inSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error, background, job bool) error {
	err := s.group.Run(ctx, fn, groupcommit.Options{Background: background, Tagged: job})
	if err == groupcommit.ErrClosed {
		return livestock.Errorf(livestock.KindUnavailable, "the store is closed")
	}
	return err
}
