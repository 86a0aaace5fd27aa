package jobs

import (
	"log/slog"
	"sync"
	"time"
)

// While the store cannot be reached every worker's claim fails. A worker
// then waits longer after each failure in a row (Poll, doubling, up to
// maxIdle) rather than asking again at every poll, and the runner writes
// one log line per wait however many workers fail, then one when the
// queue answers again. Nothing is lost meanwhile: a job lives in the
// store, and a claim that did not commit leaves it due.

// maxIdle caps a worker's wait while the store keeps failing, so that jobs
// resume within a few seconds of the store's return.
const maxIdle = 4 * time.Second

// queueHealth is what the workers of one runner share about failures.
type queueHealth struct {
	mu       sync.Mutex
	failures int       // claims failed since the last success
	logged   time.Time // when the last failure line was written
}

// wait is how long a worker waits after its streak-th failure in a row.
func (r *Runner) wait(streak int) time.Duration {
	return min(r.opts.Poll<<min(streak-1, 8), max(maxIdle, r.opts.Poll))
}

// failed records a failed claim that ends a worker's streak-th attempt in
// a row, logs it unless another line was written within the wait, and
// returns the wait.
func (r *Runner) failed(streak int, err error) time.Duration {
	d := r.wait(streak)
	h := &r.health
	h.mu.Lock()
	h.failures++
	n, quiet := h.failures, time.Since(h.logged) >= d
	if quiet {
		h.logged = time.Now()
	}
	h.mu.Unlock()
	if quiet {
		r.opts.Log.Warn("job queue", slog.Any("error", err), slog.Int("failures", n), slog.Duration("retry_in", d))
	}
	return d
}

// succeeded records a claim that worked, and logs the end of an outage.
func (r *Runner) succeeded() {
	h := &r.health
	h.mu.Lock()
	n := h.failures
	h.failures, h.logged = 0, time.Time{}
	h.mu.Unlock()
	if n > 0 {
		r.opts.Log.Info("job queue answers again", slog.Int("failures", n))
	}
}
