// Package retention deletes what Drover keeps only for a while: the
// replies kept for requests that carried a correlation id, so that a retry
// gets the first answer (internal/replay). A retry comes seconds or hours
// after its request, not months, so replies older than the retention
// period are deleted rather than kept for ever.
//
// A Sweeper runs in every replica. That is harmless: a delete is
// idempotent, and on PostgreSQL replicas sweeping together take disjoint
// batches (store.MovementStore.DeleteRepliesBefore).
package retention

import (
	"context"
	"log/slog"
	"time"
)

// Replies is the part of the store a Sweeper uses.
type Replies interface {
	DeleteRepliesBefore(ctx context.Context, before time.Time, limit int) (int, error)
}

// Options configure a Sweeper.
type Options struct {
	// Retention is how long a reply is kept; zero or less keeps replies
	// for ever (Run returns at once).
	Retention time.Duration
	// Interval is the time between sweeps; default 10 minutes.
	Interval time.Duration
	// Batch is how many replies one statement deletes at most; default
	// 1,000. A batch is one short write, so a large backlog (the first
	// sweep after an upgrade) does not hold SQLite's one writer for long.
	Batch int
	Log   *slog.Logger
	Now   func() time.Time
}

// Sweeper deletes expired replies.
type Sweeper struct {
	st   Replies
	opts Options
}

// New makes a sweeper over st.
func New(st Replies, o Options) *Sweeper {
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
	return &Sweeper{st: st, opts: o}
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

// Sweep deletes every reply created more than Retention before now, a
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
		n, err = s.st.DeleteRepliesBefore(ctx, cut, s.opts.Batch)
		deleted += n
		if err != nil || n < s.opts.Batch {
			break
		}
	}
	attrs := []any{slog.Int("deleted", deleted), slog.Time("before", cut), slog.Duration("duration", time.Since(start))}
	switch {
	case err != nil && ctx.Err() != nil:
		s.opts.Log.Info("reply retention: sweep stopped by shutdown", attrs...)
	case err != nil:
		s.opts.Log.Warn("reply retention: sweep failed; the next one retries", append(attrs, slog.Any("error", err))...)
	default:
		s.opts.Log.Info("reply retention: expired replies deleted", attrs...)
	}
	return deleted, err
}
