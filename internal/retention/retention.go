// Package retention deletes what Drover keeps only for a while:
//
//   - the replies kept for requests that carried a correlation id, so that
//     a retry gets the first answer (internal/replay). A retry comes
//     seconds or hours after its request, not months
//     (--reply-retention);
//   - the jobs done: each request queues one, and once it has run the
//     request's own row holds the outcome; the job row is kept a while
//     for the operator, then deleted (--job-retention). Available and
//     failed jobs are never deleted.
//
// A Sweeper runs in every replica for each. That is harmless: a delete is
// idempotent, and on PostgreSQL replicas sweeping together take disjoint
// batches (store.ReplyStore.DeleteRepliesBefore,
// store.JobStore.DeleteDoneJobsBefore).
package retention

import (
	"context"
	"log/slog"
	"time"
)

// Delete deletes at most limit of what a Sweeper sweeps that is older than
// before, oldest first, and reports how many it deleted: one of the
// store's Delete…Before methods.
type Delete func(ctx context.Context, before time.Time, limit int) (int, error)

// Options configure a Sweeper.
type Options struct {
	// Retention is how long a row is kept; zero or less keeps rows for
	// ever (Run returns at once).
	Retention time.Duration
	// Interval is the time between sweeps; default 10 minutes.
	Interval time.Duration
	// Batch is how many rows one statement deletes at most; default
	// 1,000. A batch is one short write, so a large backlog (the first
	// sweep after an upgrade) does not hold SQLite's one writer for long.
	Batch int
	Log   *slog.Logger
	Now   func() time.Time
}

// Sweeper deletes expired rows of one kind.
type Sweeper struct {
	what string
	del  Delete
	opts Options
}

// New makes a sweeper of what (plural: "replies", "done jobs", for its
// log lines) that deletes with del.
func New(what string, del Delete, o Options) *Sweeper {
	if o.Interval <= 0 {
		o.Interval = 10 * time.Minute
	}
	if o.Batch <= 0 {
		o.Batch = 1000
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Sweeper{what: what, del: del, opts: o}
}

// Run sweeps at once, then every Interval, until ctx ends. A sweep in
// progress when ctx ends is abandoned: the batches deleted stay deleted,
// and the next sweep carries on.
func (s *Sweeper) Run(ctx context.Context) {
	if s.opts.Retention <= 0 {
		return
	}
	t := time.NewTicker(s.opts.Interval)
	defer t.Stop()
	s.run(ctx, t.C)
}

// run sweeps at once, then at the time of every tick, until ctx ends.
// Taking the time from the tick lets a test drive the clock.
func (s *Sweeper) run(ctx context.Context, tick <-chan time.Time) {
	now := s.opts.Now()
	for {
		_, _ = s.sweep(ctx, now) // sweep logs its own outcome
		select {
		case <-ctx.Done():
			return
		case now = <-tick:
		}
	}
}

// Sweep deletes every row older than Retention before now, a
// batch at a time until a batch comes back short, and logs one line with
// the count. It returns how many it deleted, and the error that stopped
// it, if any.
func (s *Sweeper) Sweep(ctx context.Context) (deleted int, err error) {
	return s.sweep(ctx, s.opts.Now())
}

func (s *Sweeper) sweep(ctx context.Context, now time.Time) (deleted int, err error) {
	start, cut := time.Now(), now.Add(-s.opts.Retention)
	for {
		var n int
		n, err = s.del(ctx, cut, s.opts.Batch)
		deleted += n
		if err != nil || n < s.opts.Batch {
			break
		}
	}
	attrs := []any{slog.String("what", s.what), slog.Int("deleted", deleted), slog.Time("before", cut), slog.Duration("duration", time.Since(start))}
	switch {
	case err != nil && ctx.Err() != nil:
		s.opts.Log.Info("retention: sweep stopped by shutdown", attrs...)
	case err != nil:
		s.opts.Log.Warn("retention: sweep failed; the next one retries", append(attrs, slog.Any("error", err))...)
	default:
		s.opts.Log.Info("retention: expired "+s.what+" deleted", attrs...)
	}
	return deleted, err
}
