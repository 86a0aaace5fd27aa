package api

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// queueGate refuses submissions that would queue a job while the job
// queue is longer than Config.MaxQueuedJobs. The limits in front of it
// bound what is served at once, not what is accepted: every transfer,
// correction, review, undo and async registration is a job, and a server
// that accepts them faster than its jobs run (a POST costs less than the
// job it queues) lets the queue, and the time a request stays Pending,
// grow for as long as the load lasts. Past the bound a submission gets
// 503 R003 with Retry-After: the caller retries once the queue has
// drained, rather than waiting minutes for an outcome. The queue is the
// store's, so replicas on one PostgreSQL see the same length.
//
// The length is read from the store (JobBacklog) in the background, by
// the first submission that finds the last reading due for renewal;
// submissions meanwhile use the last reading. A reading counts the queued
// jobs' index entries, tens of thousands under a bulk upload, so it is
// taken only as often as the answer could change: at most once every
// queueRead, and then only once this replica has checked as many
// submissions as the queue had room for under its bound, or the reading
// is queueReadLongest old. Near or over the bound that is every
// queueRead; far below it, seldom. A reading that fails is not an
// answer: the last one stands.
type queueGate struct {
	max   int
	store interface {
		JobBacklog(ctx context.Context) (map[store.JobState]int, error)
	}

	mu      sync.Mutex
	queued  int
	readAt  time.Time
	checked int // submissions checked since the last reading
	reading bool
}

// queueRead is the soonest a reading follows the last, and
// queueReadLongest the longest one stands.
const (
	queueRead        = time.Second
	queueReadLongest = 10 * time.Second
)

// queueRetryAfter is the wait a refused submission is asked for: a full
// queue takes seconds to drain, not the second a concurrency limit does.
const queueRetryAfter = 5 * time.Second

// gateQueue refuses, while the job queue is over its bound, the requests
// that queues says would queue a job: 503 R003 with Retry-After, before
// the body is read or validated, and counted.
func (s *Server) gateQueue(queues func(*http.Request) bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if s.queue == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if queues(r) {
				if err := s.queue.check(time.Now()); err != nil {
					s.metrics.rejected.WithLabelValues("queue").Inc()
					retryAfter(w, queueRetryAfter)
					s.fail(w, r, err)
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// always and asyncMode say which requests queue a job: every submission
// of a request collection; a registration in async mode (an unknown mode
// is let through, for the handler to refuse with 400).
func always(*http.Request) bool { return true }

func asyncMode(r *http.Request) bool {
	async, err := requestMode(r)
	return async && err == nil
}

// check returns nil, or the error to answer a submission with when the
// queue is over the bound.
func (g *queueGate) check(now time.Time) error {
	if g == nil || g.max <= 0 {
		return nil
	}
	g.mu.Lock()
	queued := g.queued
	g.checked++
	stale := g.due(now)
	if stale {
		g.reading = true
	}
	g.mu.Unlock()
	if stale {
		go g.read()
	}
	if queued <= g.max {
		return nil
	}
	return &livestock.Error{Kind: livestock.KindUnavailable,
		Detail: "the service has more work queued than it takes: retry after the time in Retry-After",
		Fields: []livestock.FieldError{{Code: livestock.CodeOverloaded,
			Message: fmt.Sprintf("%d jobs are queued, over the limit of %d", queued, g.max)}}}
}

// due reports whether a new reading should start; g.mu is held.
func (g *queueGate) due(now time.Time) bool {
	age := now.Sub(g.readAt)
	return !g.reading && age >= queueRead && (g.checked >= g.max-g.queued || age >= queueReadLongest)
}

// read refreshes the queue's length from the store.
func (g *queueGate) read() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := g.store.JobBacklog(ctx)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reading, g.readAt = false, time.Now()
	if err == nil {
		g.queued, g.checked = counts[store.JobAvailable], 0
	}
}
