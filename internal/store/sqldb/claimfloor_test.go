package sqldb

import (
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// TestClaimFloor: a claim reads from the start until a claim takes a
// job, then from the first job it took, and from the start again when a
// claim takes none, a second after the last claim from the start, and
// when the clock goes back.
func TestClaimFloor(t *testing.T) {
	var f claimFloor
	t0 := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	due := t0.Add(-time.Minute)
	check := func(name string, now time.Time, wantOK bool, want time.Time) {
		t.Helper()
		runAt, ok := f.from(now)
		if ok != wantOK || ok && !runAt.Equal(want) {
			t.Errorf("%s: from = %v, %v; want %v, %v", name, runAt, ok, want, wantOK)
		}
	}
	earlier := due.Add(-time.Second)
	check("no claim yet", t0, false, time.Time{})
	f.claimed([]store.Job{{ID: 7, RunAt: due}, {ID: 9, RunAt: due.Add(time.Millisecond)}})
	check("after a claim", t0.Add(100*time.Millisecond), true, due)
	check("again", t0.Add(900*time.Millisecond), true, due)
	check("a second after the claim from the start", t0.Add(time.Second), false, time.Time{})
	check("then from the floor", t0.Add(1100*time.Millisecond), true, due)
	check("clock gone back", t0, false, time.Time{})
	f.claimed(nil)
	check("after a claim that took none", t0.Add(10*time.Millisecond), false, time.Time{})
	f.claimed([]store.Job{{ID: 3, RunAt: earlier}})
	check("a claim from the start moves the floor back", t0.Add(20*time.Millisecond), true, earlier)
}
