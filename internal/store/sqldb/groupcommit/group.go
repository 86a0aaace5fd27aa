package groupcommit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Groups grow with the load by themselves: the calls that arrive while a
// committer commits make its next group. A committer never waits for more:
// a lone caller pays no delay, and under load a window of 200µs to 1ms
// halved the commits without adding throughput (sqldb's
// BenchmarkInsertRequest). SQLite has one committer, as it has one
// writer; PostgreSQL may have several (Config.Committers), each on a
// connection of its own, since one runs its fns a round trip at a time.

const (
	// MaxGroup bounds the fns sharing one transaction. On PostgreSQL every
	// savepoint that writes is a subtransaction, and past 64 of them in one
	// transaction the server's cache of them overflows, which slows down
	// every other session's snapshots.
	MaxGroup = 64
	// queueLen is how many calls may wait for a committer before callers
	// block on handing theirs over.
	queueLen = 4 * MaxGroup
	// MaxBackground bounds the background calls (Options.Background) in
	// a group that also serves callers waiting on an answer, unless the
	// group has more foreground calls than that: then it takes as many
	// background calls as foreground ones. A job's fn does more than a
	// submission's, and the job workers keep the committer busy whenever
	// a queue has formed: with a group's share of jobs unbounded, a
	// request waited for every worker's job as well as its own group. But
	// every submission queues a job, and with a share of 4 the jobs kept
	// pace only while commits were fast: at 1,000 async registrations a
	// second that needs 250 groups a second, and when the disk slowed,
	// groups grew, the jobs fell behind and a queue of hundreds formed. A
	// group with no foreground call takes as many as it can hold, so jobs
	// never starve.
	MaxBackground = 4
)

// ErrClosed is what Run returns once the group is stopped.
var ErrClosed = errors.New("groupcommit: the group is stopped")

// Config is what New needs. S is what each fn is given: Pass makes one
// for each pass of a group, over the pass's transaction.
type Config[S any] struct {
	// Pool is the writer: each committer runs its groups on a connection
	// of it.
	Pool *Pool
	// Committers is how many groups may run at once; 0 means 1.
	Committers int
	// Pass makes what the fns of one pass are given, over its transaction.
	Pass func(tx *Tx) S
	// ConnDeadline sets the deadline of the network connection under
	// driverConn (a connection of database/sql's Conn.Raw); the zero time
	// clears it. nil: groups run with no deadline (deadline.go).
	ConnDeadline func(driverConn any, t time.Time) error
	// ExecBatch sends stmts on driverConn (in a transaction) in one round
	// trip, in order, sets each one's Affected, and stops at the first
	// that fails; nil: writes are never deferred (deferred.go). A group
	// that can defer runs every group without savepoints first, to learn
	// the keys (Tx.SetKey) that order its pass with them.
	ExecBatch func(ctx context.Context, driverConn any, stmts []Statement) error
	// Error turns an error of the group's own into what a caller is told:
	// op is "" for the caller's context's error when its call is given up
	// before it ran, else the step that failed ("begin", "savepoint",
	// "release", "rollback to savepoint", "commit"). nil: the error is
	// wrapped with op.
	Error func(op string, err error) error
	// Buckets are the upper bounds of the histograms of Stats.
	Buckets []time.Duration
}

// Options says how a call is queued.
type Options struct {
	// Background marks a call no caller waits on to answer a request (a
	// job's): it has a queue of its own, and a group serving foreground
	// calls takes only so many of them (MaxBackground).
	Background bool
	// Tagged marks the call for the fns of its pass to count (Tx.Tagged);
	// the group does nothing else with it.
	Tagged bool
}

// The states of a call: a caller may abandon its call only while queued.
const (
	queued int32 = iota
	running
	abandoned
)

// call is one Run waiting for a committer.
type call[S any] struct {
	ctx   context.Context
	fn    func(context.Context, S) error
	opts  Options
	state atomic.Int32
	done  chan error // buffered, so a committer never waits for a caller
	// key is what fn's optimistic pass set (Tx.SetKey), by which a pass
	// with savepoints orders the calls (run.go); "" when none.
	key string
}

// Group is the committers of one writer pool and the queues that feed
// them: calls, of callers waiting on an answer, and background, of jobs.
type Group[S any] struct {
	cfg        Config[S]
	mu         sync.RWMutex // held shared while handing a call over, exclusively by Stop
	closed     bool
	calls      chan *call[S]
	background chan *call[S]
	committers int
	stopped    sync.WaitGroup
	careful    atomic.Int32 // groups still to run with savepoints from the start (run.go)
	stats      counters
}

// New starts c.Committers committers (at least one).
func New[S any](c Config[S]) *Group[S] {
	if c.Error == nil {
		c.Error = func(op string, err error) error { return fmt.Errorf("groupcommit: %s: %w", op, err) }
	}
	g := &Group[S]{cfg: c, committers: max(c.Committers, 1),
		calls: make(chan *call[S], queueLen), background: make(chan *call[S], queueLen)}
	g.stats.init(c.Buckets)
	for i := range g.committers {
		g.stopped.Go(func() { g.commit(i) })
	}
	return g
}

// Stop refuses new calls, lets the committers finish those queued, and
// waits for them to stop.
func (g *Group[S]) Stop() {
	g.mu.Lock()
	if !g.closed {
		g.closed = true
		close(g.calls)
		close(g.background)
	}
	g.mu.Unlock()
	g.stopped.Wait()
}

// Committers reports how many groups may run at once.
func (g *Group[S]) Committers() int { return g.committers }

// Queued reports how many calls wait for a committer.
func (g *Group[S]) Queued() int { return len(g.calls) + len(g.background) }

// Run runs fn in a transaction it may share with other callers' fns,
// under the package's contract (doc.go), and returns once that
// transaction has ended.
func (g *Group[S]) Run(ctx context.Context, fn func(ctx context.Context, s S) error, o Options) error {
	if err := ctx.Err(); err != nil {
		return g.cfg.Error("", err)
	}
	c := &call[S]{ctx: ctx, fn: fn, opts: o, done: make(chan error, 1)}
	if err := g.enqueue(c); err != nil {
		return err
	}
	select {
	case err := <-c.done:
		return err
	case <-ctx.Done():
		if c.state.CompareAndSwap(queued, abandoned) {
			return g.cfg.Error("", ctx.Err())
		}
		// fn has started: wait for its outcome, so that an error always
		// means that nothing of fn's was committed.
		return <-c.done
	}
}

// enqueue hands c to the committers, unless the group is stopped.
func (g *Group[S]) enqueue(c *call[S]) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.closed {
		return ErrClosed
	}
	q := g.calls
	if c.opts.Background {
		q = g.background
	}
	select {
	case q <- c:
		return nil
	case <-c.ctx.Done():
		return g.cfg.Error("", c.ctx.Err())
	}
}
