package sqldb

import (
	"slices"
	"sync"
	"sync/atomic"
)

// heldJobs are the jobs whose attempt failed in a group and whose failure
// RetryJob has not recorded yet. Rolled back with its attempt, such a job
// is due as before, and the oldest: without the hold, the next claim would
// take it again at once, skipping its backoff, counting the attempt twice,
// and running a last attempt again beside its abandon. This store's claims
// pass over held jobs until RetryJob. Another replica's claims do not know
// of them: on PostgreSQL, from the rollback to the failed call's savepoint
// (which lets its row go) to RetryJob's commit, another replica may take
// the job.
type heldJobs struct {
	n   atomic.Int32 // len(ids), read without the lock by every claim
	mu  sync.Mutex
	ids map[int64]struct{}
}

func (h *heldJobs) hold(id int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ids == nil {
		h.ids = map[int64]struct{}{}
	}
	h.ids[id] = struct{}{}
	h.n.Store(int32(len(h.ids)))
}

// release lets go of id, if it is held.
func (h *heldJobs) release(id int64) {
	if h.n.Load() == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.ids, id)
	h.n.Store(int32(len(h.ids)))
}

// has reports whether id is held: a claim whose query was made before the
// hold, and ran after the failed attempt let the row go, may find it.
func (h *heldJobs) has(id int64) bool {
	if h.n.Load() == 0 {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.ids[id]
	return ok
}

// appendTo is skip with the jobs held, in a new slice when there are any.
func (h *heldJobs) appendTo(skip []int64) []int64 {
	if h.n.Load() == 0 {
		return skip
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	skip = slices.Clip(skip)
	for id := range h.ids {
		skip = append(skip, id)
	}
	return skip
}
