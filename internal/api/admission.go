package api

import (
	"context"
	"time"
)

// admission is the server's one concurrency limit: at most limit requests
// are served at once; up to waiting more wait, in arrival order, at most
// maxWait for one of those to finish; any other is refused at once. It
// guards the machine (CPU, memory, database connections), so it counts
// every request alike, whoever sends it; fairness between users is the
// rate limit's (ratelimit.go), and the job queue's length the queue gate's
// (queuegate.go).
//
// The limit is fixed, not derived from latency. In a server that shares
// commits between writes, latency grows with concurrency even while
// throughput grows too, and on a shared machine it also grows with what
// other processes take, so a limit that follows latency refuses load the
// server could carry. A fixed limit bounds what overload can cost instead:
// memory (limit requests being served, waiting more holding little) and
// the time an admitted request spends inside, about (limit + waiting) ÷
// throughput. Clients with fewer than limit + waiting requests outstanding
// between them (a closed loop) are not refused while places come free
// within maxWait; those that send faster than the server answers find the
// wait full and are refused within microseconds.
type admission struct {
	slots   chan struct{} // one token per request being served
	queue   chan struct{} // one token per request waiting for a slot
	maxWait time.Duration
}

// refusal says why acquire refused a request.
type refusal int

const (
	admitted refusal = iota
	full             // every slot and every place in the wait taken
	waited           // waited maxWait without a slot
	gone             // the request's context ended while it waited
)

// newAdmission returns nil, no limit, when limit is 0 or less.
func newAdmission(limit, waiting int, maxWait time.Duration) *admission {
	if limit <= 0 {
		return nil
	}
	if waiting <= 0 || maxWait <= 0 {
		waiting, maxWait = 0, 0
	}
	return &admission{slots: make(chan struct{}, limit), queue: make(chan struct{}, waiting), maxWait: maxWait}
}

// acquire takes a slot, waiting for one if the wait has room. Admitted, the
// caller must call release exactly once, whatever happens after (defer
// it). A waiter takes a slot before any later request: a buffered
// channel's receive hands the freed place to the longest-blocked sender.
func (a *admission) acquire(ctx context.Context) refusal {
	select {
	case a.slots <- struct{}{}:
		return admitted
	default:
	}
	select {
	case a.queue <- struct{}{}:
	default:
		return full
	}
	defer func() { <-a.queue }()
	t := time.NewTimer(a.maxWait)
	defer t.Stop()
	select {
	case a.slots <- struct{}{}:
		return admitted
	case <-t.C:
		return waited
	case <-ctx.Done():
		return gone
	}
}

// release gives back the slot of a request acquire admitted.
func (a *admission) release() { <-a.slots }

// inFlight and waiting are the requests being served and waiting now, for
// the metrics.
func (a *admission) inFlight() float64 { return float64(len(a.slots)) }
func (a *admission) waiting() float64  { return float64(len(a.queue)) }
