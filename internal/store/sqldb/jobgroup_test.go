package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestJobsShareCommits queues job runs and submissions while every
// committer is held, then lets one committer take them all: they make one
// commit between them (two where a store has several committers, which
// give jobs groups of their own). The job whose fn fails keeps nothing, is left as it
// was, and is tried by one call only in each run of the group
// (groupcommit's run.go), though it is the oldest due; the others are done once
// each, and the submissions are kept.
func TestJobsShareCommits(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s, ctx := unwrap(t, st), t.Context()
		base := time.Now()
		bad := enqueue(t, s, base.Add(-time.Minute))
		good := []int64{enqueue(t, s, base), enqueue(t, s, base)}
		releases := holdAll(t, s)
		before := sqldb.SharedCommits(s)

		// One run more than the jobs (it finds nothing), and no more runs
		// than a group with submissions in it takes (MaxBackground).
		const runs, submissions = 4, 8
		var mu sync.Mutex
		tries := map[int64]int{}
		boom := errors.New("job failed")
		errs := make([]error, runs+submissions)
		var wg sync.WaitGroup
		for i := range runs {
			wg.Go(func() {
				_, errs[i] = s.RunJob(ctx, []string{"share"}, base, func(ctx context.Context, tx store.Tx, j store.Job) error {
					mu.Lock()
					tries[j.ID]++
					mu.Unlock()
					if err := audit(ctx, tx, fmt.Sprintf("job:%d", j.ID)); err != nil || j.ID != bad {
						return err
					}
					return boom
				})
			})
		}
		for i := range submissions {
			wg.Go(func() {
				errs[runs+i] = s.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
					if _, err := tx.EnqueueJob(ctx, store.NewJob{Kind: "later"}); err != nil {
						return err
					}
					return audit(ctx, tx, fmt.Sprintf("sub:%d", i))
				})
			})
		}
		waitQueued(t, s, runs+submissions)
		releases[0]() // one committer takes the whole queue; the others stay held until it is done
		wg.Wait()
		// The holder's, then the group's; with several committers the
		// submissions and the jobs make a group each (gather).
		want := int64(1)
		if s.Committers() > 1 {
			want = 2
		}
		if commits := sqldb.SharedCommits(s) - before; commits != want+1 {
			t.Errorf("%d job runs and %d submissions made %d commits; want %d", runs, submissions, commits-1, want)
		}
		for _, release := range releases[1:] {
			release()
		}

		for i, err := range errs {
			if err != nil && !(i < runs && errors.Is(err, boom)) {
				t.Errorf("call %d: %v", i, err)
			}
		}
		// The failing job fails the group's run without savepoints (it is
		// the first job claimed, so no other job ran in it), and is tried
		// once more in the run with them, by one call only.
		if j, err := s.Job(ctx, bad); err != nil || j.State != store.JobAvailable || j.Attempts != 0 || tries[bad] != 2 {
			t.Errorf("the failing job = %+v, %v, tried %d times; want available and untouched, tried once a run", j, err, tries[bad])
		}
		wantAudit(t, s, fmt.Sprintf("job:%d", bad), 0)
		for _, id := range good {
			if j, err := s.Job(ctx, id); err != nil || j.State != store.JobDone || tries[id] != 1 {
				t.Errorf("job %d = %+v, %v, run %d times; want done once", id, j, err, tries[id])
			}
			wantAudit(t, s, fmt.Sprintf("job:%d", id), 1)
		}
		for i := range submissions {
			wantAudit(t, s, fmt.Sprintf("sub:%d", i), 1)
		}
	})
}

func audit(ctx context.Context, tx store.Tx, subject string) error {
	return tx.Audit(ctx, store.AuditEntry{Action: "share", Subject: subject})
}

// enqueue adds a job of kind "share" due at runAt.
func enqueue(t *testing.T, s *sqldb.Store, runAt time.Time) (id int64) {
	t.Helper()
	err := s.InTx(t.Context(), func(ctx context.Context, tx store.Tx) (err error) {
		id, err = tx.EnqueueJob(ctx, store.NewJob{Kind: "share", RunAt: runAt})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func wantAudit(t *testing.T, s *sqldb.Store, subject string, want int) {
	t.Helper()
	err := s.InTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
		lines, err := storetest.AuditEntries(ctx, tx, subject)
		if err == nil && len(lines) != want {
			t.Errorf("%s has %d audit lines; want %d", subject, len(lines), want)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// holdAll takes every committer with a transaction that waits for its
// release, which returns once that transaction has committed.
func holdAll(t *testing.T, s *sqldb.Store) []func() {
	releases := make([]func(), s.Committers())
	for i := range releases { // one at a time, so that each takes a committer of its own
		held, free, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			done <- s.InSharedTx(t.Context(), func(context.Context, store.Tx) error {
				close(held)
				<-free
				return nil
			})
		}()
		<-held
		releases[i] = func() {
			close(free)
			if err := <-done; err != nil {
				t.Errorf("InSharedTx holding a committer: %v", err)
			}
		}
	}
	return releases
}

// TestJobsYieldToRequests queues more job runs than a group with requests
// in it takes, beside requests: the first group runs every request, then
// as many jobs (TestJobsKeepPace); the other jobs make a group of their
// own after it. With several committers the requests and the jobs make a
// group each, and which goes first depends on the committer let go
// (gather).
func TestJobsYieldToRequests(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s, ctx := unwrap(t, st), t.Context()
		base := time.Now()
		const runs, submissions = 3 * sqldb.MaxBackground, 8
		for range runs {
			enqueueKind(t, s, "yield", base)
		}
		releases := holdAll(t, s)
		before := sqldb.SharedCommits(s)
		var order []string // what ran, in the committer's order (fns run one at a time)
		var wg sync.WaitGroup
		for range runs {
			wg.Go(func() {
				ran, err := s.RunJob(ctx, []string{"yield"}, base, func(context.Context, store.Tx, store.Job) error {
					order = append(order, "job")
					return nil
				})
				if err != nil || !ran {
					t.Errorf("RunJob = %v, %v; want a job run", ran, err)
				}
			})
		}
		waitQueued(t, s, runs)
		for range submissions { // queued after the jobs: they still go first
			wg.Go(func() {
				if err := s.InSharedTx(ctx, func(context.Context, store.Tx) error {
					order = append(order, "request")
					return nil
				}); err != nil {
					t.Errorf("InSharedTx: %v", err)
				}
			})
		}
		waitQueued(t, s, runs+submissions)
		releases[0]() // one committer takes the queues; the others stay held
		wg.Wait()
		commits := sqldb.SharedCommits(s) - before
		for _, release := range releases[1:] {
			release()
		}
		var want []string
		for range submissions {
			want = append(want, "request")
		}
		for range runs {
			want = append(want, "job")
		}
		if s.Committers() > 1 && order[0] == "job" {
			// With several committers the jobs have groups of their own,
			// and a committer that looks at their queue first took them.
			want = append(want[submissions:], want[:submissions]...)
		}
		if diff := cmp.Diff(want, order); diff != "" {
			t.Errorf("order of the fns (-want +got):\n%s", diff)
		}
		// The holder's commit, the requests' group with as many jobs, then
		// one group of the remaining jobs; with several committers, the
		// requests' group and the jobs'.
		if commits != 3 {
			t.Errorf("%d job runs and %d requests made %d commits after the holder's; want 2", runs, submissions, commits-1)
		}
	})
}

// enqueueKind adds a job of kind due at runAt.
func enqueueKind(t *testing.T, s *sqldb.Store, kind string, runAt time.Time) {
	t.Helper()
	err := s.InTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
		_, err := tx.EnqueueJob(ctx, store.NewJob{Kind: kind, RunAt: runAt})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestJobsKeepPace queues more job runs than a group takes, then
// submissions: the submissions' group takes as many jobs as it has
// submissions, or MaxBackground if that is more, so that jobs, one a
// submission, do not fall behind while commits are slow.
func TestJobsKeepPace(t *testing.T) {
	t.Parallel()
	for _, submissions := range []int{2, 2 * sqldb.MaxBackground} {
		t.Run(fmt.Sprintf("%d submissions", submissions), func(t *testing.T) {
			t.Parallel()
			storetest.Each(t, func(t *testing.T, st store.Store) {
				s, ctx := unwrap(t, st), t.Context()
				base := time.Now()
				runs := submissions + sqldb.MaxBackground + 4
				for range runs {
					enqueueKind(t, s, "pace", base)
				}
				releases := holdAll(t, s)
				before := sqldb.SharedCommits(s)
				var mu sync.Mutex
				group := map[string][]int64{} // "job" or "request": the commit each fn ran before
				record := func(what string) {
					mu.Lock()
					defer mu.Unlock()
					group[what] = append(group[what], sqldb.SharedCommits(s)-before)
				}
				var wg sync.WaitGroup
				for range runs {
					wg.Go(func() {
						ran, err := s.RunJob(ctx, []string{"pace"}, base, func(context.Context, store.Tx, store.Job) error {
							record("job")
							return nil
						})
						if err != nil || !ran {
							t.Errorf("RunJob = %v, %v; want a job run", ran, err)
						}
					})
				}
				waitQueued(t, s, runs)
				for range submissions {
					wg.Go(func() {
						if err := s.InSharedTx(ctx, func(context.Context, store.Tx) error {
							record("request")
							return nil
						}); err != nil {
							t.Errorf("InSharedTx: %v", err)
						}
					})
				}
				waitQueued(t, s, runs+submissions)
				releases[0]()
				wg.Wait()
				for _, release := range releases[1:] {
					release()
				}
				first := group["request"][0]
				for _, g := range group["request"] {
					if g != first {
						t.Fatalf("the submissions ran in groups %v; want one", group["request"])
					}
				}
				with := 0
				for _, g := range group["job"] {
					if g == first {
						with++
					}
				}
				want := max(sqldb.MaxBackground, submissions)
				if s.Committers() > 1 {
					want = 0 // the jobs have groups of their own (gather)
				}
				if with != want {
					t.Errorf("%d jobs ran in the group of %d submissions; want %d", with, submissions, want)
				}
			})
		})
	}
}
