package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testJobRetention deletes the done jobs due before a cut, oldest first and
// at most a batch at a time, and keeps every other job: done at or after
// the cut, still available, or failed.
func testJobRetention(t *testing.T, s store.Store) {
	c := ctx(t)
	done := func(kind string, runAt time.Time) int64 {
		id := enqueue(t, s, store.NewJob{Kind: kind, Payload: []byte(`{}`), RunAt: runAt})
		ran, err := s.RunJob(c, []string{kind}, base.Add(time.Hour), func(context.Context, store.Tx, store.Job) error { return nil })
		if err != nil || !ran {
			t.Fatalf("RunJob(%s) = %v, %v; want true, nil", kind, ran, err)
		}
		return id
	}
	// Oldest first; the cut is base.
	old := []int64{done("a", base.Add(-3*time.Hour)), done("b", base.Add(-2*time.Hour)), done("c", base.Add(-time.Microsecond))}
	kept := map[int64]store.JobState{done("d", base): store.JobDone}
	kept[enqueue(t, s, store.NewJob{Kind: "e", Payload: []byte(`{}`), RunAt: base.Add(-4 * time.Hour)})] = store.JobAvailable
	failed := enqueue(t, s, store.NewJob{Kind: "f", Payload: []byte(`{}`), RunAt: base.Add(-5 * time.Hour)})
	must(t, "RetryJob(final)", s.RetryJob(c, failed, base.Add(-5*time.Hour), "gave up", true))
	kept[failed] = store.JobFailed

	_, err := s.DeleteDoneJobsBefore(c, base, 0)
	wantKind(t, "DeleteDoneJobsBefore with limit 0", err, livestock.KindInvalid)
	for i, want := range []int{2, 1, 0} { // batches of 2 until none remain
		n, err := s.DeleteDoneJobsBefore(c, base, 2)
		must(t, fmt.Sprintf("DeleteDoneJobsBefore, batch %d", i), err)
		if n != want {
			t.Errorf("DeleteDoneJobsBefore, batch %d: deleted %d, want %d", i, n, want)
		}
		if i == 0 { // the limit holds, and the oldest went first
			if _, err := Inspect(s).Job(c, old[2]); err != nil {
				t.Errorf("after the first batch, Job(%d): %v, want it kept", old[2], err)
			}
		}
	}
	for _, id := range old {
		_, err := Inspect(s).Job(c, id)
		wantKind(t, fmt.Sprintf("Job(%d) after its retention", id), err, livestock.KindNotFound)
	}
	for id, state := range kept {
		if j, err := Inspect(s).Job(c, id); err != nil || j.State != state {
			t.Errorf("Job(%d) after retention = %+v, %v; want it kept, %s", id, j, err, state)
		}
	}
}
