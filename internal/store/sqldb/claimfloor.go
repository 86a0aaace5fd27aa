package sqldb

import (
	"sync"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// fullClaimEvery is how often a store whose Tuning sets ClaimFloor
// claims from the start of the claim index rather than from its floor.
const fullClaimEvery = time.Second

// claimFloor is where a claim starts reading the claim index (state,
// run_at, id), for a database that keeps the entries of jobs done until a
// vacuum (Tuning.ClaimFloor): there a claim from the start of the index
// walks every done job's entry since the last vacuum.
//
// The floor is the run_at of the first job the last claim took: a job
// before it was done, or held by another transaction, when that claim ran
// (the few due at that same instant are read again). A job can still come
// to be due before it (a transaction holding it rolls back; another
// replica's clock is behind): a claim that finds nothing from the floor,
// and one a second in any case, reads from the start, so such a job waits
// at most about a second longer. The floor is only a hint, so each
// replica keeps its own in memory.
type claimFloor struct {
	mu     sync.Mutex
	runAt  time.Time
	set    bool
	fullAt time.Time // when the last claim from the start was made
}

// from returns the floor a claim made at now should start from; ok is
// false when it is to read from the start.
func (f *claimFloor) from(now time.Time) (runAt time.Time, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.set || now.Sub(f.fullAt) >= fullClaimEvery || now.Before(f.fullAt) {
		f.fullAt = now
		return time.Time{}, false
	}
	return f.runAt, true
}

// claimed moves the floor to the first of the jobs a claim took (jobs,
// in claim order), or clears it when the claim took none.
func (f *claimFloor) claimed(jobs []store.Job) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(jobs) == 0 {
		f.set = false
		return
	}
	f.runAt, f.set = jobs[0].RunAt, true
}
