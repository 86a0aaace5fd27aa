package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// testJobRace runs one job from several goroutines at once: it runs once.
func testJobRace(t *testing.T, s store.Store) {
	c := ctx(t)
	id := enqueue(t, s, store.NewJob{Kind: "k", RunAt: now})
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			if _, err := s.RunJob(c, []string{"k"}, now, func(c context.Context, tx store.Tx, j store.Job) error {
				calls.Add(1)
				return auditJob(c, tx, j)
			}); err != nil {
				t.Errorf("RunJob: %v", err)
			}
		})
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("the job ran %d times, want once", n)
	}
	if got := Audit(t, s, fmt.Sprintf("job:%d", id)); len(got) != 1 {
		t.Errorf("audit of the job = %+v; want exactly one line", got)
	}
}

// testJobSkipLocked holds one job in a running fn while another worker
// claims: on PostgreSQL the second worker takes the next job rather than
// waiting. (SQLite's one writer runs one job at a time by design.)
func testJobSkipLocked(t *testing.T, s store.Store) {
	if s.Dialect() == "sqlite" {
		t.Skip("SQLite runs one write transaction at a time")
	}
	c := ctx(t)
	first := enqueue(t, s, store.NewJob{Kind: "k", RunAt: now.Add(-time.Minute)})
	second := enqueue(t, s, store.NewJob{Kind: "k", RunAt: now})
	started, release := make(chan int64), make(chan struct{})
	done := make(chan error)
	go func() {
		_, err := s.RunJob(c, []string{"k"}, now, func(c context.Context, tx store.Tx, j store.Job) error {
			started <- j.ID
			<-release
			return auditJob(c, tx, j)
		})
		done <- err
	}()
	if held := <-started; held != first {
		t.Errorf("first worker holds job %d, want %d", held, first)
	}
	// A claim that waits for the held job fails here rather than hangs.
	quick, cancel := context.WithTimeout(c, 10*time.Second)
	defer cancel()
	var other int64
	ran, err := s.RunJob(quick, []string{"k"}, now, func(c context.Context, tx store.Tx, j store.Job) error {
		other = j.ID
		return auditJob(c, tx, j)
	})
	if err != nil || !ran || other != second {
		t.Errorf("second worker = %v, %v, job %d; want job %d", ran, err, other, second)
	}
	// With both held or done, a third worker finds nothing, at once.
	ran, err = s.RunJob(quick, []string{"k"}, now, auditJob)
	if err != nil || ran {
		t.Errorf("third worker = %v, %v; want false, nil", ran, err)
	}
	close(release)
	must(t, "first worker", <-done)
	for _, id := range []int64{first, second} {
		if j, err := Inspect(s).Job(c, id); err != nil || j.State != store.JobDone {
			t.Errorf("job %d = %+v, %v; want done", id, j, err)
		}
	}
}
