package sqldb

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Group commit. A small write transaction costs little but its commit: an
// fsync of the WAL on SQLite, a WAL flush and a round trip on PostgreSQL.
// InSharedTx hands its fn to a committer, which takes every call waiting
// at that moment, runs their fns one after another in one transaction,
// each in a savepoint when one of them fails (grouprun.go), and commits
// once for all of them.
//
// Groups grow with the load by themselves: the calls that arrive while a
// committer commits make its next group. A committer never waits for more:
// a lone caller pays no delay, and under load a window of 200µs to 1ms
// halved the commits without adding throughput (BenchmarkInsertRequest).
// SQLite has one committer, as it has one writer; PostgreSQL may have
// several (Config.Committers), each on a connection of its own, since one
// runs its fns a round trip at a time.

const (
	// maxGroup bounds the fns sharing one transaction. On PostgreSQL every
	// savepoint that writes is a subtransaction, and past 64 of them in one
	// transaction the server's cache of them overflows, which slows down
	// every other session's snapshots.
	maxGroup = 64
	// queueLen is how many calls may wait for a committer before callers
	// block on handing theirs over.
	queueLen = 4 * maxGroup
	// maxBackground bounds the background calls (jobs: RunJob, RetryJob)
	// in a group that also serves callers waiting on an answer, unless
	// the group has more foreground calls than that: then it takes as
	// many background calls as foreground ones. A job's fn does more than
	// a submission's, and the job workers keep the committer busy
	// whenever a queue has formed: with a group's share of jobs
	// unbounded, a request waited for every worker's job as well as its
	// own group. But every submission queues a job, and with a share of 4
	// the jobs kept pace only while commits were fast: at 1,000 async
	// registrations a second that needs 250 groups a second, and when
	// the disk slowed, groups grew, the jobs fell behind and a queue of
	// hundreds formed. A group with no foreground call takes as many as
	// it can hold, so jobs never starve.
	maxBackground = 4
)

// The states of a call: a caller may abandon its call only while queued.
const (
	queued int32 = iota
	running
	abandoned
)

// call is one InSharedTx waiting for a committer.
type call struct {
	ctx        context.Context
	fn         func(context.Context, store.Tx) error
	background bool // a job's (RunJob, RetryJob), not a caller waiting on an answer
	job        bool // RunJob's
	state      atomic.Int32
	done       chan error // buffered, so a committer never waits for a caller
	// key is the user and trackingId of the request fn inserted in the
	// group's optimistic pass, by which a pass with savepoints orders
	// the calls (grouprun.go); "" when none.
	key string
}

// group is the committers of one store and the queues that feed them:
// calls, of callers waiting on an answer, and background, of jobs.
type group struct {
	mu         sync.RWMutex // held shared while handing a call over, exclusively by stop
	closed     bool
	calls      chan *call
	background chan *call
	committers int
	stopped    sync.WaitGroup
	commits    atomic.Int64 // shared transactions committed
	kept       atomic.Int64 // calls kept by those commits
	commitTime durations    // of COMMIT, by commit
	groupTime  durations    // from BEGIN to the end of COMMIT, by commit
	failed     atomic.Int64 // shared transactions that could not commit
	careful    atomic.Int32 // groups still to run with savepoints from the start (grouprun.go)
	retried    atomic.Int64 // optimistic passes given up, their groups run again with savepoints
	batches    atomic.Int64 // batches of deferred writes sent (deferred.go)
}

// startGroup starts n committers (at least one) for s.
func (s *Store) startGroup(n int) {
	s.group.calls, s.group.committers = make(chan *call, queueLen), max(n, 1)
	s.group.background = make(chan *call, queueLen)
	for i := range s.group.committers {
		s.group.stopped.Go(func() { s.commit(i) })
	}
}

// stopGroup refuses new calls, lets the committers finish those queued,
// and waits for them to stop.
func (s *Store) stopGroup() {
	g := &s.group
	g.mu.Lock()
	if !g.closed {
		g.closed = true
		close(g.calls)
		close(g.background)
	}
	g.mu.Unlock()
	g.stopped.Wait()
}

// GroupStats reports the group commit's totals; see store.Store.
func (s *Store) GroupStats() store.GroupStats {
	g := &s.group
	commit := g.commitTime.snapshot()
	// The commits before the calls: a group adds its calls first
	// (runGroup), so no commit is counted without them.
	commits := g.commits.Load()
	return store.GroupStats{Commits: commits, Calls: g.kept.Load(),
		Failed: g.failed.Load(), Commit: commit, Group: g.groupTime.snapshot()}
}

// durations is a store.Histogram that committers add to concurrently.
type durations struct {
	counts [len(store.GroupBuckets) + 1]atomic.Int64
	sum    atomic.Int64 // nanoseconds
}

func (d *durations) observe(x time.Duration) {
	i := 0
	for i < len(store.GroupBuckets) && x > store.GroupBuckets[i] {
		i++
	}
	d.counts[i].Add(1)
	d.sum.Add(int64(x))
}

// snapshot reads the counts one by one: a scrape that races a commit may
// see it in the sum and not yet in a count.
func (d *durations) snapshot() store.Histogram {
	var h store.Histogram
	for i := range d.counts {
		h.Counts[i] = d.counts[i].Load()
	}
	h.Sum = time.Duration(d.sum.Load())
	return h
}

// Committers reports how many shared transactions may run at once.
func (s *Store) Committers() int { return s.group.committers }

// InSharedTx runs fn in a transaction it may share with other callers'
// fns; see store.Store and grouprun.go.
func (s *Store) InSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) error {
	return s.inSharedTx(ctx, fn, false, false)
}

// inSharedTx is InSharedTx, for a job's fn when background is set; job
// marks RunJob's, which claims a job (jobclaim.go).
func (s *Store) inSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error, background, job bool) error {
	if err := ctx.Err(); err != nil {
		return s.d.Error("InSharedTx", err)
	}
	c := &call{ctx: ctx, fn: fn, background: background, job: job, done: make(chan error, 1)}
	if err := s.enqueue(c, background); err != nil {
		return err
	}
	select {
	case err := <-c.done:
		return err
	case <-ctx.Done():
		if c.state.CompareAndSwap(queued, abandoned) {
			return s.d.Error("InSharedTx", ctx.Err())
		}
		// fn has started: wait for its outcome, so that an error always
		// means that nothing of fn's was committed.
		return <-c.done
	}
}

// enqueue hands c to the committers, unless the store is closed.
func (s *Store) enqueue(c *call, background bool) error {
	g := &s.group
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.closed {
		return livestock.Errorf(livestock.KindUnavailable, "the store is closed")
	}
	q := g.calls
	if background {
		q = g.background
	}
	select {
	case q <- c:
		return nil
	case <-c.ctx.Done():
		return s.d.Error("InSharedTx", c.ctx.Err())
	}
}

// commit is committer number i: it runs groups of calls until both queues
// are closed and empty.
func (s *Store) commit(i int) {
	batch := make([]*call, 0, maxGroup)
	for {
		batch = s.gather(batch[:0], i)
		if len(batch) == 0 {
			return
		}
		careful := false
		if n := s.group.careful.Load(); n > 0 {
			careful = true
			s.group.careful.CompareAndSwap(n, n-1)
		}
		errs, failed := s.runGroup(batch, careful)
		// A store that defers writes always runs the optimistic pass
		// first: it costs a round trip or two, and it learns the keys by
		// which the pass with savepoints orders its calls (passOrder).
		if failed && s.tune.ExecBatch == nil {
			s.group.careful.Store(afterFailure)
		}
		for i, c := range batch {
			c.done <- errs[i]
		}
		clear(batch)
	}
}

// gather waits for a call, then takes every foreground call waiting, up
// to maxGroup, and background calls after them: maxBackground in all if
// the group has a foreground call, else as many as fit. It returns batch
// empty once both queues are closed and drained.
//
// With several committers a group holds calls of one queue only, and half
// of the committers look at the background queue first: a job locks rows
// and waits on the locks of other groups' jobs (Dialect.AnimalsLock), and
// submissions sharing its group would wait with it while another
// committer could commit them. The jobs keep the committers that prefer
// them, so they neither starve nor hold up the submissions.
func (s *Store) gather(batch []*call, committer int) []*call {
	fg, bg := s.group.calls, s.group.background
	separate := s.group.committers > 1
	preferBackground := separate && committer%2 == 1
	var first *call
	firstBackground := false
	for first == nil && (fg != nil || bg != nil) {
		if preferBackground {
			select { // a background call first, if one is waiting
			case c, ok := <-bg:
				if !ok {
					bg = nil
				}
				first, firstBackground = c, c != nil
				continue
			default:
			}
		}
		select { // a foreground call first, if one is waiting
		case c, ok := <-fg:
			if !ok {
				fg = nil
			}
			first = c
			continue
		default:
		}
		select {
		case c, ok := <-fg:
			if !ok {
				fg = nil
			}
			first = c
		case c, ok := <-bg:
			if !ok {
				bg = nil
			}
			first, firstBackground = c, c != nil
		}
	}
	if first == nil {
		return batch
	}
	batch = append(batch, first)
	if separate {
		if firstBackground {
			return take(batch, bg, maxGroup)
		}
		return take(batch, fg, maxGroup)
	}
	batch = take(batch, fg, maxGroup)
	backgrounds := 0
	if firstBackground {
		backgrounds = 1
	}
	room := maxGroup
	if foregrounds := len(batch) - backgrounds; foregrounds > 0 {
		room = min(maxGroup, len(batch)+max(maxBackground, foregrounds)-backgrounds)
	}
	return take(batch, bg, room)
}

// take appends the calls waiting on q to batch, without blocking, until
// batch holds n.
func take(batch []*call, q chan *call, n int) []*call {
	for q != nil && len(batch) < n {
		select {
		case c, ok := <-q:
			if !ok {
				return batch
			}
			batch = append(batch, c)
		default:
			return batch
		}
	}
	return batch
}
