// Package jobs runs Drover's durable background work: queued registrations
// and movement requests. A job is written by the request that creates it,
// in the same transaction (store.Tx.EnqueueJob), so it exists exactly when
// the request was acknowledged. The runner claims due jobs from the store
// and applies each inside the claiming transaction, so a job's effects and
// its completion commit together: applied exactly once, whatever crashes.
// That transaction is a shared one (store.TxStore.InSharedTx): the jobs of
// several workers and the submissions arriving meanwhile pay for one
// commit between them, so jobs keep up with a stream of submissions on
// SQLite's one writer rather than queueing behind them a commit each.
//
// A handler that fails is retried with exponential backoff; an error marked
// Permanent, or the last allowed attempt, fails the job for good, and its
// kind's Abandon ends the work it stood for. Several
// replicas can run runners on one PostgreSQL store: each job is held by
// one of them at a time (SKIP LOCKED).
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Handler applies one job inside the transaction that claimed it.
type Handler func(ctx context.Context, tx store.Tx, j store.Job) error

// Abandon ends, in a transaction of its own, the work a job stands for
// when its Handler failed for good (a panic, a Permanent error or the last
// attempt): that attempt's writes were rolled back, and the request the
// job was to decide must not stay pending for ever. It must leave work
// that is already decided alone, since another replica may have taken the
// job meanwhile.
type Abandon func(ctx context.Context, tx store.Tx, j store.Job, cause error) error

// Options configure a Runner.
type Options struct {
	// Workers is how many jobs may be taken at once; default 2. A worker
	// costs a goroutine, not a connection: the jobs of busy workers share
	// one transaction, so more workers make larger groups, not more
	// transactions.
	Workers int
	// Poll is how often a worker looks for due jobs once it has found
	// none; default 500ms. A worker that keeps finding none looks less and
	// less often, down to once every 8 × Poll (idleWait); Notify, or
	// finding a job, brings it back to Poll.
	Poll time.Duration
	// JobTimeout is the longest a worker waits for its turn to take a job
	// or record a failure; default 30s. A job that has started runs to its
	// end: its statements are not cancelled, since that would break the
	// transaction it shares.
	JobTimeout time.Duration
	Log        *slog.Logger
	Now        func() time.Time
}

// Store is what a Runner uses of store.Store: claiming and retrying jobs
// (store.JobStore), and a shared transaction in which to abandon a job
// that failed for good (store.TxStore).
type Store interface {
	RunJob(ctx context.Context, kinds []string, now time.Time, fn func(ctx context.Context, tx store.Tx, j store.Job) error) (ran bool, err error)
	RetryJob(ctx context.Context, id int64, runAt time.Time, lastError string, final bool) error
	InSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) error
}

// Runner claims and runs jobs.
type Runner struct {
	store    Store
	opts     Options
	mu       sync.Mutex
	handlers map[string]Handler
	abandons map[string]Abandon
	kinds    []string
	wake     chan struct{}
	health   queueHealth
	stats    struct{ done, retried, failed atomic.Uint64 }
}

// Stats counts this runner's job attempts by outcome since it started:
// what a stalled or failing queue shows first, per replica.
type Stats struct {
	Done    uint64 // applied
	Retried uint64 // failed, due again after a backoff
	Failed  uint64 // failed for good
}

// Stats reports the runner's counts so far.
func (r *Runner) Stats() Stats {
	return Stats{Done: r.stats.done.Load(), Retried: r.stats.retried.Load(), Failed: r.stats.failed.Load()}
}

// New makes a runner; register handlers before Run.
func New(s Store, o Options) *Runner {
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Poll <= 0 {
		o.Poll = 500 * time.Millisecond
	}
	if o.JobTimeout <= 0 {
		o.JobTimeout = 30 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Runner{store: s, opts: o, handlers: map[string]Handler{},
		abandons: map[string]Abandon{}, wake: make(chan struct{}, 1)}
}

// Register sets the handler of a job kind.
func (r *Runner) Register(kind string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.handlers[kind]; !dup {
		r.kinds = append(r.kinds, kind)
	}
	r.handlers[kind] = h
}

// RegisterAbandon sets what ends the work of a job of kind that failed for
// good.
func (r *Runner) RegisterAbandon(kind string, a Abandon) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.abandons[kind] = a
}

// Notify wakes an idle worker: call it after committing a transaction that
// enqueued a job, so the job starts without waiting for the next poll.
func (r *Runner) Notify() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run works until ctx ends. A job already running when ctx ends is let
// finish (within JobTimeout); then Run returns.
func (r *Runner) Run(ctx context.Context) error {
	r.mu.Lock()
	kinds := append([]string(nil), r.kinds...)
	r.mu.Unlock()
	if len(kinds) == 0 {
		<-ctx.Done()
		return nil
	}
	var wg sync.WaitGroup
	for range r.opts.Workers {
		wg.Go(func() { r.work(ctx, kinds) })
	}
	wg.Wait()
	return nil
}

func (r *Runner) work(ctx context.Context, kinds []string) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	streak := 0 // failures in a row (outage.go)
	idle := 0   // drains in a row that found no job
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
			if streak > 0 {
				continue // a failing store is not asked sooner for a new job
			}
		case <-timer.C:
		}
		// Drain the queue before sleeping again.
		wait, found := r.opts.Poll, false
		for ctx.Err() == nil {
			ran, err := r.RunOne(ctx, kinds)
			if err != nil {
				streak++
				wait = r.failed(streak, err)
				break
			}
			if streak > 0 {
				streak = 0
				r.succeeded()
			}
			if !ran {
				if found {
					idle = 0
				} else {
					idle++
					wait = r.idleWait(idle)
				}
				break
			}
			found = true
		}
		timer.Reset(wait + time.Duration(rand.Int64N(int64(wait/5)+1)))
	}
}

// idleWait is how long a worker waits after its n-th look in a row that
// found no job: Poll, doubling, up to 8 × Poll. An idle replica's workers
// each claimed nothing twice a second (16 workers: 32 transactions a
// second, three round trips each on PostgreSQL, per replica); after a few
// seconds idle they look every 4 s. Jobs enqueued on this replica are
// not delayed (Notify wakes a worker at once); a job enqueued on another
// replica, or a retry falling due, waits at most 8 × Poll for a look.
func (r *Runner) idleWait(n int) time.Duration {
	return r.opts.Poll << min(max(n-1, 0), 3)
}

// RunOne runs at most one due job and reports whether it found one. The
// job runs on a context that outlives ctx, so that a shutdown lets it
// finish rather than abandoning it half way.
func (r *Runner) RunOne(ctx context.Context, kinds []string) (bool, error) {
	jctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.opts.JobTimeout)
	defer cancel()
	var failed *store.Job
	var jobErr error
	ran, err := r.store.RunJob(jctx, kinds, r.opts.Now(), func(ctx context.Context, tx store.Tx, j store.Job) error {
		failed, jobErr = nil, nil // fn may run again, its first run undone: only its last counts
		h := r.handler(j.Kind)
		if h == nil {
			return Permanent(fmt.Errorf("no handler for job kind %q", j.Kind))
		}
		jobErr = safeCall(ctx, h, tx, j)
		if jobErr != nil {
			failed = &j
		}
		return jobErr
	})
	if failed != nil && ran { // not ran: the pass that failed was undone, and its rerun claimed no job
		// The attempt may have used up jctx; recording its failure has a
		// deadline of its own, or a job slower than JobTimeout would run
		// again at once, its attempts never counted.
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), r.opts.JobTimeout)
		defer rcancel()
		var p *panicked
		if errors.As(jobErr, &p) {
			r.opts.Log.Error("job panicked", slog.Int64("job", failed.ID), slog.String("kind", failed.Kind),
				slog.Any("panic", p.value), slog.String("stack", string(p.stack)))
		}
		final := lastAttempt(*failed, jobErr)
		if final && !r.abandon(rctx, *failed, jobErr) {
			final = false // its work not ended: due again after a backoff, to be ended then
		}
		return true, r.retry(rctx, *failed, jobErr, final)
	}
	if err != nil {
		return ran, err
	}
	if ran {
		r.stats.done.Add(1)
	}
	return ran, nil
}

func (r *Runner) handler(kind string) Handler {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.handlers[kind]
}

// panicked is a handler's panic, with the stack it was raised on.
type panicked struct {
	value any
	stack []byte
}

func (p *panicked) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// safeCall runs h, turning a panic into a permanent failure of the job so
// that one bad job cannot stop the worker.
func safeCall(ctx context.Context, h Handler, tx store.Tx, j store.Job) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = Permanent(fmt.Errorf("job %d: %w", j.ID, &panicked{value: v, stack: debug.Stack()}))
		}
	}()
	return h(ctx, tx, j)
}

// lastAttempt reports whether the attempt of j that failed with cause is its
// last.
func lastAttempt(j store.Job, cause error) bool {
	return IsPermanent(cause) || j.Attempts+1 >= j.MaxAttempts
}

// abandon ends the work of a job that failed for good, before the job is
// failed: a crash between the two leaves the job due, and its next run
// finds the work decided. It reports whether the work was ended; when it
// was not (logged), the job must not fail, or its request would stay
// pending for ever.
func (r *Runner) abandon(ctx context.Context, j store.Job, cause error) bool {
	r.mu.Lock()
	a := r.abandons[j.Kind]
	r.mu.Unlock()
	if a == nil {
		return true
	}
	err := r.store.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) (err error) {
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("abandon panicked: %v", v)
			}
		}()
		return a(ctx, tx, j, cause)
	})
	if err != nil {
		r.opts.Log.Error("job's work could not be ended", slog.Int64("job", j.ID), slog.String("kind", j.Kind),
			slog.Any("error", err))
	}
	return err == nil
}

// retry records a failed attempt: due again after a backoff, or failed for
// good when final.
func (r *Runner) retry(ctx context.Context, j store.Job, cause error, final bool) error {
	attempt := j.Attempts + 1
	runAt := r.opts.Now().Add(Backoff(attempt))
	lvl := slog.LevelWarn
	if final {
		lvl = slog.LevelError
	}
	r.opts.Log.Log(ctx, lvl, "job attempt failed", slog.Int64("job", j.ID), slog.String("kind", j.Kind),
		slog.Int("attempt", attempt), slog.Bool("final", final), slog.Any("error", cause))
	err := r.store.RetryJob(ctx, j.ID, runAt, cause.Error(), final)
	if livestock.ErrorKind(err) == livestock.KindConflict {
		// The attempt's claim was undone with its transaction (its
		// connection cut), and another worker took the job and finished
		// it: the job's outcome is that worker's, and nothing is owed.
		r.opts.Log.Info("job finished by another attempt", slog.Int64("job", j.ID), slog.String("kind", j.Kind),
			slog.Any("state", err))
		return nil
	}
	if err != nil {
		return fmt.Errorf("record failure of job %d: %w", j.ID, err)
	}
	if final {
		r.stats.failed.Add(1)
	} else {
		r.stats.retried.Add(1)
	}
	return nil
}

// Backoff is the wait before attempt n+1: 1s, 2s, 4s … capped at 10
// minutes, with up to 10% jitter so that failed jobs do not retry in step.
func Backoff(attempt int) time.Duration {
	d := time.Second << min(attempt-1, 10)
	d = min(d, 10*time.Minute)
	return d + time.Duration(rand.Int64N(int64(d/10)+1))
}

type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent marks err as not worth retrying.
func Permanent(err error) error { return permanent{err} }

// IsPermanent reports whether err was marked Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}
