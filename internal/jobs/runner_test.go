package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// enqueue writes n jobs of kind, each in its own transaction with an audit
// line, as a request handler would.
func enqueue(t *testing.T, s store.Store, kind string, n int) []int64 {
	t.Helper()
	var ids []int64
	for i := range n {
		err := s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) error {
			id, err := tx.EnqueueJob(ctx, store.NewJob{Kind: kind, Payload: []byte(fmt.Sprintf(`{"n":%d}`, i))})
			ids = append(ids, id)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// enqueueWith writes one job, j, and returns its id.
func enqueueWith(t *testing.T, s store.Store, j store.NewJob) (id int64) {
	t.Helper()
	err := s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) (err error) {
		id, err = tx.EnqueueJob(ctx, j)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// effects counts the audit lines a job's handler wrote: its visible effect.
func effects(t *testing.T, s store.Store, id int64) int {
	t.Helper()
	var n int
	err := s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) error {
		e, err := storetest.AuditEntries(ctx, tx, fmt.Sprintf("job:%d", id))
		n = len(e)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func apply(ctx context.Context, tx store.Tx, j store.Job) error {
	return tx.Audit(ctx, store.AuditEntry{At: time.Now(), Action: "applied", Subject: fmt.Sprintf("job:%d", j.ID)})
}

func TestAppliedOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := enqueue(t, s, "test.apply", 3)
		r := jobs.New(s, jobs.Options{})
		r.Register("test.apply", apply)
		for range 3 {
			if ran, err := r.RunOne(context.Background(), []string{"test.apply"}); !ran || err != nil {
				t.Fatalf("RunOne = %v, %v", ran, err)
			}
		}
		if ran, err := r.RunOne(context.Background(), []string{"test.apply"}); ran || err != nil {
			t.Fatalf("RunOne on an empty queue = %v, %v", ran, err)
		}
		for _, id := range ids {
			j, err := storetest.Inspect(s).Job(context.Background(), id)
			if err != nil || j.State != store.JobDone || effects(t, s, id) != 1 {
				t.Errorf("job %d: %+v, %v, %d effects; want done once", id, j, err, effects(t, s, id))
			}
		}
	})
}

func TestRolledBackEnqueueLeavesNoJob(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		var id int64
		boom := errors.New("request failed after enqueue")
		err := s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) error {
			var err error
			id, err = tx.EnqueueJob(ctx, store.NewJob{Kind: "test.apply", Payload: []byte(`{}`)})
			if err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx = %v", err)
		}
		if _, err := storetest.Inspect(s).Job(context.Background(), id); err == nil {
			t.Errorf("job %d exists after its transaction rolled back", id)
		}
	})
}

func TestRetryWithBackoff(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := enqueue(t, s, "test.flaky", 1)
		now := time.Now()
		r := jobs.New(s, jobs.Options{Now: func() time.Time { return now }})
		calls := 0
		r.Register("test.flaky", func(ctx context.Context, tx store.Tx, j store.Job) error {
			calls++
			if err := apply(ctx, tx, j); err != nil {
				return err
			}
			if calls == 1 {
				return errors.New("database hiccup")
			}
			return nil
		})
		kinds := []string{"test.flaky"}
		if ran, err := r.RunOne(context.Background(), kinds); !ran || err != nil {
			t.Fatalf("first attempt: %v, %v", ran, err)
		}
		j, _ := storetest.Inspect(s).Job(context.Background(), ids[0])
		if j.State != store.JobAvailable || j.Attempts != 1 || !j.RunAt.After(now) || j.LastError != "database hiccup" {
			t.Fatalf("after a failed attempt: %+v", j)
		}
		if effects(t, s, ids[0]) != 0 {
			t.Fatal("a failed attempt left its effect behind")
		}
		// Not due yet: nothing runs until the backoff has passed.
		if ran, _ := r.RunOne(context.Background(), kinds); ran {
			t.Fatal("job ran again before its backoff")
		}
		now = now.Add(jobs.Backoff(1) + time.Second)
		if ran, err := r.RunOne(context.Background(), kinds); !ran || err != nil {
			t.Fatalf("second attempt: %v, %v", ran, err)
		}
		j, _ = storetest.Inspect(s).Job(context.Background(), ids[0])
		if j.State != store.JobDone || effects(t, s, ids[0]) != 1 {
			t.Fatalf("after the second attempt: %+v, %d effects", j, effects(t, s, ids[0]))
		}
		if got := r.Stats(); got != (jobs.Stats{Done: 1, Retried: 1}) {
			t.Errorf("Stats = %+v, want one retried and one done", got)
		}
	})
}

func TestPermanentFailureAndPanic(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := enqueue(t, s, "test.bad", 2)
		r := jobs.New(s, jobs.Options{})
		r.Register("test.bad", func(ctx context.Context, tx store.Tx, j store.Job) error {
			if j.ID == ids[0] {
				return jobs.Permanent(errors.New("cannot ever work"))
			}
			panic("handler bug")
		})
		for range 2 {
			if _, err := r.RunOne(context.Background(), []string{"test.bad"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range ids {
			if j, _ := storetest.Inspect(s).Job(context.Background(), id); j.State != store.JobFailed || j.FinishedAt.IsZero() {
				t.Errorf("job %d = %+v, want failed", id, j)
			}
		}
		if got := r.Stats(); got != (jobs.Stats{Failed: 2}) {
			t.Errorf("Stats = %+v, want two failed", got)
		}
	})
}

// TestPanicAbandonsWork: a handler that panics has its writes rolled back,
// the panic logged with its stack, and its kind's Abandon called with the
// job in a transaction of its own, whose writes stand; the job fails.
func TestPanicAbandonsWork(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := enqueue(t, s, "test.panic", 1)
		var logs bytes.Buffer
		r := jobs.New(s, jobs.Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
		r.Register("test.panic", func(ctx context.Context, tx store.Tx, j store.Job) error {
			if err := apply(ctx, tx, j); err != nil {
				return err
			}
			panic("handler bug")
		})
		var abandoned []int64
		r.RegisterAbandon("test.panic", func(ctx context.Context, tx store.Tx, j store.Job, cause error) error {
			abandoned = append(abandoned, j.ID)
			if !strings.Contains(cause.Error(), "handler bug") {
				t.Errorf("cause = %v, want the panic", cause)
			}
			return tx.Audit(ctx, store.AuditEntry{At: time.Now(), Action: "abandoned", Subject: fmt.Sprintf("job:%d", j.ID)})
		})
		if ran, err := r.RunOne(context.Background(), []string{"test.panic"}); !ran || err != nil {
			t.Fatalf("RunOne = %v, %v", ran, err)
		}
		if fmt.Sprint(abandoned) != fmt.Sprint(ids) || effects(t, s, ids[0]) != 1 {
			t.Errorf("abandoned %v, %d audit lines; want %v and only the abandon's line", abandoned, effects(t, s, ids[0]), ids)
		}
		if j, _ := storetest.Inspect(s).Job(context.Background(), ids[0]); j.State != store.JobFailed {
			t.Errorf("job = %+v, want failed", j)
		}
		if l := logs.String(); !strings.Contains(l, "job panicked") || !strings.Contains(l, "runtime/debug.Stack") ||
			!strings.Contains(l, "TestPanicAbandonsWork") {
			t.Errorf("log has no panic with its stack:\n%s", l)
		}
	})
}

// TestLastAttemptAbandons: a handler that fails after writing is retried
// with its writes rolled back each time; its last attempt calls its kind's
// Abandon, in a transaction of its own, and fails the job. Attempts before
// the last are not abandoned.
func TestLastAttemptAbandons(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		id := enqueueWith(t, s, store.NewJob{Kind: "test.flaky", Payload: []byte(`{}`), MaxAttempts: 2})
		clock := time.Now()
		r := jobs.New(s, jobs.Options{Now: func() time.Time { return clock }})
		r.Register("test.flaky", func(ctx context.Context, tx store.Tx, j store.Job) error {
			if err := apply(ctx, tx, j); err != nil {
				return err
			}
			return errors.New("store went away after the write")
		})
		var abandoned int
		r.RegisterAbandon("test.flaky", func(ctx context.Context, tx store.Tx, j store.Job, cause error) error {
			abandoned++
			return tx.Audit(ctx, store.AuditEntry{At: time.Now(), Action: "abandoned", Subject: fmt.Sprintf("job:%d", j.ID)})
		})
		for attempt := 1; attempt <= 2; attempt++ {
			if ran, err := r.RunOne(context.Background(), []string{"test.flaky"}); !ran || err != nil {
				t.Fatalf("attempt %d: RunOne = %v, %v", attempt, ran, err)
			}
			if abandoned != attempt-1 || effects(t, s, id) != attempt-1 {
				t.Errorf("after attempt %d: abandoned %d times, %d audit lines; want %d of each", attempt, abandoned, effects(t, s, id), attempt-1)
			}
			clock = clock.Add(time.Hour) // past the backoff
		}
		if j, _ := storetest.Inspect(s).Job(context.Background(), id); j.State != store.JobFailed {
			t.Errorf("job = %+v, want failed", j)
		}
		if got := r.Stats(); got != (jobs.Stats{Retried: 1, Failed: 1}) {
			t.Errorf("Stats = %+v, want one retried, one failed", got)
		}
	})
}

// blipStore fails its first InSharedTx, as a connection reset would: the
// abandon of a job's last attempt, in the tests that use it.
type blipStore struct {
	store.Store
	blipped atomic.Bool
}

func (b *blipStore) InSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) error {
	if b.blipped.CompareAndSwap(false, true) {
		return livestock.Errorf(livestock.KindUnavailable, "connection reset by peer")
	}
	return b.Store.InSharedTx(ctx, fn)
}

// TestAbandonFailedIsRetried: when the abandon of a job's last attempt
// fails, the job is not failed (nothing would ever end its work): it is
// due again after a backoff, and its next failure abandons it.
func TestAbandonFailedIsRetried(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		id := enqueueWith(t, s, store.NewJob{Kind: "test.last", Payload: []byte(`{}`), MaxAttempts: 1})
		clock := time.Now()
		r := jobs.New(&blipStore{Store: s}, jobs.Options{Now: func() time.Time { return clock }})
		r.Register("test.last", func(context.Context, store.Tx, store.Job) error { return errors.New("boom") })
		ended := 0
		r.RegisterAbandon("test.last", func(ctx context.Context, tx store.Tx, j store.Job, _ error) error {
			ended++
			return nil
		})
		for attempt, want := range []store.JobState{store.JobAvailable, store.JobFailed} {
			if ran, err := r.RunOne(context.Background(), []string{"test.last"}); !ran || err != nil {
				t.Fatalf("attempt %d: RunOne = %v, %v", attempt+1, ran, err)
			}
			if j, _ := storetest.Inspect(s).Job(context.Background(), id); j.State != want || ended != attempt {
				t.Errorf("after attempt %d: job %s, ended %d times; want %s, %d", attempt+1, j.State, ended, want, attempt)
			}
			clock = clock.Add(time.Hour)
		}
	})
}

// rerunStore runs fn as a group's two passes would when the first fails
// and the second, with savepoints, finds the job taken meanwhile: the
// first pass's failure was undone, and no job ran. It counts the writes
// asked of it after.
type rerunStore struct{ writes int }

func (*rerunStore) RunJob(ctx context.Context, _ []string, _ time.Time, fn func(context.Context, store.Tx, store.Job) error) (bool, error) {
	_ = fn(ctx, nil, store.Job{ID: 7, Kind: "test.k", MaxAttempts: 1})
	return false, nil
}

func (r *rerunStore) RetryJob(context.Context, int64, time.Time, string, bool) error {
	r.writes++
	return nil
}

func (r *rerunStore) InSharedTx(context.Context, func(context.Context, store.Tx) error) error {
	r.writes++
	return nil
}

// TestUndonePassIsNoFailure: a failure from a pass of the group that was
// undone, whose rerun claimed no job, is not recorded or abandoned.
func TestUndonePassIsNoFailure(t *testing.T) {
	t.Parallel()
	s := &rerunStore{}
	r := jobs.New(s, jobs.Options{})
	r.Register("test.k", func(context.Context, store.Tx, store.Job) error { return errors.New("first pass") })
	r.RegisterAbandon("test.k", func(context.Context, store.Tx, store.Job, error) error { return nil })
	if ran, err := r.RunOne(context.Background(), []string{"test.k"}); ran || err != nil || s.writes != 0 {
		t.Errorf("RunOne = %v, %v, %d writes after; want false, nil, none", ran, err, s.writes)
	}
	if got := r.Stats(); got != (jobs.Stats{}) {
		t.Errorf("Stats = %+v, want nothing counted", got)
	}
}

// TestFailedJobWaitsItsBackoff: while a failed attempt's failure is being
// recorded, the other workers, busy with a stream of jobs, do not take
// the job again: it runs once in the first second, its backoff.
func TestFailedJobWaitsItsBackoff(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		bad := enqueue(t, s, "test.bad", 1)[0]
		enqueue(t, s, "test.ok", 200)
		r := jobs.New(s, jobs.Options{Workers: 4, Poll: 2 * time.Millisecond})
		r.Register("test.bad", func(context.Context, store.Tx, store.Job) error {
			time.Sleep(2 * time.Millisecond)
			return errors.New("always fails")
		})
		r.Register("test.ok", func(context.Context, store.Tx, store.Job) error {
			time.Sleep(time.Millisecond)
			return nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
		defer cancel()
		_ = r.Run(ctx)
		if j, _ := storetest.Inspect(s).Job(context.Background(), bad); j.Attempts != 1 {
			t.Errorf("the failing job: %d attempts in 800 ms; want 1 (its backoff is 1 s)", j.Attempts)
		}
	})
}

// TestSlowAttemptRecorded: an attempt that fails after using up its
// JobTimeout still has its failure recorded, so that a job too slow for
// its deadline counts its attempts and ends, rather than running again
// at once, uncounted, for ever.
func TestSlowAttemptRecorded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := enqueue(t, s, "test.slow", 1)
		r := jobs.New(s, jobs.Options{JobTimeout: 200 * time.Millisecond})
		r.Register("test.slow", func(ctx context.Context, tx store.Tx, j store.Job) error {
			time.Sleep(300 * time.Millisecond)
			return errors.New("too slow")
		})
		if ran, err := r.RunOne(context.Background(), []string{"test.slow"}); !ran || err != nil {
			t.Fatalf("RunOne = %v, %v; want the failure recorded", ran, err)
		}
		if j, _ := storetest.Inspect(s).Job(context.Background(), ids[0]); j.Attempts != 1 || j.LastError == "" {
			t.Errorf("job = %+v, want one attempt recorded with its error", j)
		}
	})
}

// TestConcurrentRunners runs two runners, as two replicas would, over one
// store: every job is applied exactly once.
func TestConcurrentRunners(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const n = 40
		ids := enqueue(t, s, "test.apply", n)
		var applied atomic.Int64
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for range 2 {
			r := jobs.New(s, jobs.Options{Workers: 3, Poll: 10 * time.Millisecond})
			r.Register("test.apply", func(ctx context.Context, tx store.Tx, j store.Job) error {
				applied.Add(1)
				return apply(ctx, tx, j)
			})
			wg.Go(func() { _ = r.Run(ctx) })
		}
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			counts, err := storetest.Inspect(s).JobCounts(context.Background())
			if err == nil && counts[store.JobDone] == n {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		wg.Wait()
		for _, id := range ids {
			if got := effects(t, s, id); got != 1 {
				t.Errorf("job %d applied %d times", id, got)
			}
		}
		if applied.Load() != n {
			t.Errorf("handlers ran %d times for %d jobs", applied.Load(), n)
		}
	})
}

// TestShutdownFinishesCurrentJob cancels Run while a job is running: the
// job completes and Run returns after it.
func TestShutdownFinishesCurrentJob(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := enqueue(t, s, "test.slow", 1)
		started := make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		r := jobs.New(s, jobs.Options{Workers: 1, Poll: 10 * time.Millisecond})
		r.Register("test.slow", func(jctx context.Context, tx store.Tx, j store.Job) error {
			close(started)
			cancel() // the shutdown signal arrives mid-job
			time.Sleep(100 * time.Millisecond)
			if jctx.Err() != nil {
				return jctx.Err()
			}
			return apply(jctx, tx, j)
		})
		done := make(chan struct{})
		go func() { _ = r.Run(ctx); close(done) }()
		<-started
		<-done
		if j, _ := storetest.Inspect(s).Job(context.Background(), ids[0]); j.State != store.JobDone || effects(t, s, ids[0]) != 1 {
			t.Errorf("job after shutdown = %+v", j)
		}
	})
}

// TestQueuedJobSurvivesRestart enqueues a job, closes the store as a
// stopped process would, and runs the job from a store opened anew.
func TestQueuedJobSurvivesRestart(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ids := enqueue(t, s, "test.apply", 1)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := jobs.New(s, jobs.Options{})
	r.Register("test.apply", apply)
	if ran, err := r.RunOne(context.Background(), []string{"test.apply"}); !ran || err != nil {
		t.Fatalf("RunOne after restart = %v, %v", ran, err)
	}
	if j, _ := storetest.Inspect(s).Job(context.Background(), ids[0]); j.State != store.JobDone || effects(t, s, ids[0]) != 1 {
		t.Errorf("job after restart = %+v", j)
	}
}

// looks counts the claims a runner makes: RunJob calls, found or not.
type looks struct {
	store.Store
	n atomic.Int64
}

func (l *looks) RunJob(ctx context.Context, kinds []string, now time.Time,
	fn func(ctx context.Context, tx store.Tx, j store.Job) error) (bool, error) {
	l.n.Add(1)
	return l.Store.RunJob(ctx, kinds, now, fn)
}

// TestIdleWorkersLookLessOften: workers that keep finding no job back off
// from Poll towards 8 × Poll, and still find a job that nobody announced
// (as one enqueued by another replica).
func TestIdleWorkersLookLessOften(t *testing.T) {
	t.Parallel()
	s, err := sqlite.Open(context.Background(), t.TempDir()+"/jobs.db")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	counted := &looks{Store: s}
	const workers, poll, idleFor = 2, 10 * time.Millisecond, 500 * time.Millisecond
	r := jobs.New(counted, jobs.Options{Workers: workers, Poll: poll})
	var done atomic.Int64
	r.Register("test.quiet", func(ctx context.Context, tx store.Tx, j store.Job) error {
		done.Add(1)
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { _ = r.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()

	time.Sleep(idleFor)
	// Looking every Poll, each worker would have looked about 50 times;
	// backing off to 8 × Poll, about 9 (1 + 10, 20, 40 ms, then every 80).
	// Timers that fire late only lower the count.
	if n, every := counted.n.Load(), int64(workers*idleFor/poll); n > every/2 {
		t.Errorf("idle workers looked %d times in %s; looking every Poll is %d", n, idleFor, every)
	}
	enqueue(t, s, "test.quiet", 1) // no Notify
	for deadline := time.Now().Add(30 * time.Second); done.Load() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("an idle runner never found a job it was not told of")
		}
	}
}

// cutStore is a store whose job transaction is cut after its handler ran:
// the attempt is undone with it, and another replica (other, on the same
// database) then takes the job and finishes it before the first can
// record its failure.
type cutStore struct {
	store.Store
	other store.Store
	cut   error
}

func (c cutStore) RunJob(ctx context.Context, kinds []string, now time.Time, fn func(ctx context.Context, tx store.Tx, j store.Job) error) (bool, error) {
	ran, err := c.Store.RunJob(ctx, kinds, now, fn) // the handler fails: rolled back
	if !ran || err == nil {
		return ran, fmt.Errorf("the attempt did not fail: %v, %v", ran, err)
	}
	if ran, err := c.other.RunJob(ctx, kinds, now, apply); !ran || err != nil { // the other replica
		return false, fmt.Errorf("the other replica: %v, %v", ran, err)
	}
	return true, c.cut
}

// replicas runs body with two stores on one database, as two replicas
// would be, on each dialect.
func replicas(t *testing.T, body func(t *testing.T, a, b store.Store)) {
	open := map[string]func(t *testing.T) (store.Store, store.Store){
		"sqlite": func(t *testing.T) (store.Store, store.Store) {
			path := storetest.SQLitePath(t)
			return openOn(t, func() (store.Store, error) { return sqlite.Open(context.Background(), path) })
		},
		"postgres": func(t *testing.T) (store.Store, store.Store) {
			u := storetest.PostgresURL(t)
			return openOn(t, func() (store.Store, error) { return postgres.Open(context.Background(), u) })
		},
	}
	for name, o := range open {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, b := o(t)
			body(t, a, b)
		})
	}
}

// openOn opens two stores with open, closed when the test ends.
func openOn(t *testing.T, open func() (store.Store, error)) (store.Store, store.Store) {
	var two [2]store.Store
	for i := range two {
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		two[i] = s
	}
	return two[0], two[1]
}

// A failed attempt whose job another worker has finished since is no
// failure of the queue: RunOne reports none, logs it below a warning of
// the queue, and the job stays done, its work applied once.
func TestFailedAttemptOfAJobFinishedElsewhere(t *testing.T) {
	t.Parallel()
	replicas(t, func(t *testing.T, s, other store.Store) {
		ids := enqueue(t, s, "test.cut", 1)
		cut := errors.New("FATAL: terminating connection due to administrator command")
		var logs bytes.Buffer
		r := jobs.New(cutStore{Store: s, other: other, cut: cut}, jobs.Options{Log: slog.New(slog.NewTextHandler(&logs, nil))})
		r.Register("test.cut", func(ctx context.Context, tx store.Tx, j store.Job) error { return cut })
		if ran, err := r.RunOne(context.Background(), []string{"test.cut"}); !ran || err != nil {
			t.Fatalf("RunOne = %v, %v; want a job run and no error", ran, err)
		}
		j, _ := storetest.Inspect(s).Job(context.Background(), ids[0])
		if j.State != store.JobDone || j.Attempts != 0 || effects(t, s, ids[0]) != 1 {
			t.Errorf("the job after both workers: %+v, %d effects", j, effects(t, s, ids[0]))
		}
		if !strings.Contains(logs.String(), "job finished by another attempt") {
			t.Errorf("log: %s", logs.String())
		}
	})
}
