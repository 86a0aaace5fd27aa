package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// testJobDueBeforeClaimed: a job that comes to be due before the jobs
// claimed last (enqueued due in the past, as by a replica whose clock is
// behind, or left by a transaction that rolled back) is claimed by the
// next RunJob, not left for a later look. On PostgreSQL claims start
// from the first job the last claim took (sqldb's claimfloor.go).
func testJobDueBeforeClaimed(t *testing.T, s store.Store) {
	c := ctx(t)
	run := func() (int64, bool) {
		t.Helper()
		var id int64
		ran, err := s.RunJob(c, []string{"floor"}, now, func(_ context.Context, _ store.Tx, j store.Job) error {
			id = j.ID
			return nil
		})
		must(t, "RunJob", err)
		return id, ran
	}
	first := enqueue(t, s, store.NewJob{Kind: "floor", Payload: []byte(`{}`), RunAt: now.Add(-time.Minute)})
	if id, ran := run(); !ran || id != first {
		t.Fatalf("first RunJob ran job %d (%v), want %d", id, ran, first)
	}
	// Due an hour before the job just claimed: behind the floor.
	behind := enqueue(t, s, store.NewJob{Kind: "floor", Payload: []byte(`{}`), RunAt: now.Add(-time.Hour)})
	if id, ran := run(); !ran || id != behind {
		t.Fatalf("RunJob after a job due earlier was enqueued ran job %d (%v), want %d", id, ran, behind)
	}
	// Behind the floor again, with a job after it due as well: the job
	// after it is claimed first (the claim starts at the floor), the one
	// behind by the claim from the start that follows, at the latest a
	// second later.
	ahead := enqueue(t, s, store.NewJob{Kind: "floor", Payload: []byte(`{}`), RunAt: now.Add(-time.Second)})
	behind = enqueue(t, s, store.NewJob{Kind: "floor", Payload: []byte(`{}`), RunAt: now.Add(-2 * time.Hour)})
	seen := map[int64]bool{}
	deadline := time.Now().Add(5 * time.Second)
	for len(seen) < 2 && time.Now().Before(deadline) {
		if id, ran := run(); ran {
			seen[id] = true
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if !seen[ahead] || !seen[behind] || len(seen) != 2 {
		t.Errorf("RunJob ran %v, want %d and %d", seen, ahead, behind)
	}
	if _, ran := run(); ran {
		t.Error("RunJob ran a job once every job was done")
	}
}
