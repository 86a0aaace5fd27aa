package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// now is the clock of the job tests: every job they enqueue is due by it.
var now = time.Date(2030, 1, 2, 3, 4, 5, 6000, time.UTC)

func auditJob(c context.Context, tx store.Tx, j store.Job) error {
	return tx.Audit(c, store.AuditEntry{UserName: "worker", Action: "run", Subject: fmt.Sprintf("job:%d", j.ID)})
}

func testJobDone(t *testing.T, s store.Store) {
	c := ctx(t)
	payload := []byte(`{ "b": 2,  "a": [1] }`) // kept byte for byte
	runAt := now.Add(-time.Minute)
	id := enqueue(t, s, store.NewJob{Kind: "move", Payload: payload, RunAt: runAt})
	var seen store.Job
	ran, err := s.RunJob(c, []string{"other", "move"}, now, func(c context.Context, tx store.Tx, j store.Job) error {
		seen = j
		return auditJob(c, tx, j)
	})
	if err != nil || !ran {
		t.Fatalf("RunJob = %v, %v; want true, nil", ran, err)
	}
	if seen.ID != id || seen.Kind != "move" || !bytes.Equal(seen.Payload, payload) || seen.State != store.JobAvailable ||
		seen.Attempts != 0 || seen.MaxAttempts != 25 || !seen.RunAt.Equal(runAt) || seen.CreatedAt.IsZero() ||
		!seen.FinishedAt.IsZero() {
		t.Errorf("fn was given %+v", seen)
	}
	j, err := Inspect(s).Job(c, id)
	must(t, "Job", err)
	want := seen
	want.State, want.FinishedAt = store.JobDone, now
	if diff := cmp.Diff(want, j, cmpOpts); diff != "" {
		t.Errorf("Job after success (-want +got):\n%s", diff)
	}
	if got := Audit(t, s, fmt.Sprintf("job:%d", id)); len(got) != 1 {
		t.Errorf("audit of the job = %+v; want exactly one line", got)
	}
	ran, err = s.RunJob(c, []string{"move"}, now.Add(time.Hour), auditJob)
	if err != nil || ran {
		t.Errorf("RunJob once the job is done = %v, %v; want false, nil", ran, err)
	}
}

// testJobError checks that a failing job's effects are rolled back and the
// job is left as it was, to be claimed again once its failure is recorded.
func testJobError(t *testing.T, s store.Store) {
	c := ctx(t)
	id := enqueue(t, s, store.NewJob{Kind: "k", Payload: []byte(`{}`), RunAt: now, MaxAttempts: 3})
	ran, err := s.RunJob(c, []string{"k"}, now, func(c context.Context, tx store.Tx, j store.Job) error {
		if err := auditJob(c, tx, j); err != nil {
			return err
		}
		return errFn
	})
	if !ran || !errors.Is(err, errFn) {
		t.Fatalf("RunJob = %v, %v; want true, the function's error", ran, err)
	}
	j, err := Inspect(s).Job(c, id)
	must(t, "Job", err)
	if j.State != store.JobAvailable || j.Attempts != 0 || j.MaxAttempts != 3 || !j.FinishedAt.IsZero() {
		t.Errorf("Job after a failure = %+v; want untouched", j)
	}
	if got := Audit(t, s, fmt.Sprintf("job:%d", id)); len(got) != 0 {
		t.Errorf("audit of the failed job = %+v; want none", got)
	}
	// Until its failure is recorded, this store's claims pass over it: the
	// next claim must not take it again at once, its backoff skipped.
	take := func() (int64, error) {
		var again int64
		_, err := s.RunJob(c, []string{"k"}, now, func(_ context.Context, _ store.Tx, j store.Job) error {
			again = j.ID
			return nil
		})
		return again, err
	}
	if again, err := take(); err != nil || again != 0 {
		t.Errorf("RunJob before the failure is recorded = job %d, %v; want none", again, err)
	}
	must(t, "RetryJob", s.RetryJob(c, id, now, errFn.Error(), false))
	if again, err := take(); err != nil || again != id {
		t.Errorf("RunJob once the failure is recorded = job %d, %v; want the same job", again, err)
	}
}

// testJobFinishFails checks that a job whose fn succeeded but whose
// completion failed (on PostgreSQL the fn's refused write, its error
// ignored, aborted the transaction) is claimed again: only a failure of fn
// waits for RetryJob.
func testJobFinishFails(t *testing.T, s store.Store) {
	c := ctx(t)
	id := enqueue(t, s, store.NewJob{Kind: "k", RunAt: now})
	_, _ = s.RunJob(c, []string{"k"}, now, func(c context.Context, tx store.Tx, j store.Job) error {
		_ = tx.Audit(c, store.AuditEntry{At: now, Action: "bad bytes", Subject: "job", Detail: "\xff"}) // PostgreSQL refuses them
		return nil
	})
	if j, err := Inspect(s).Job(c, id); err != nil || j.State == store.JobDone {
		return // SQLite stores the bytes: the job finished
	}
	var again int64
	_, err := s.RunJob(c, []string{"k"}, now, func(_ context.Context, _ store.Tx, j store.Job) error {
		again = j.ID
		return nil
	})
	if err != nil || again != id {
		t.Errorf("RunJob after a failed completion = job %d, %v; want the same job", again, err)
	}
}

// testJobDue checks which job is claimed: the oldest due one of the kinds
// asked for.
func testJobDue(t *testing.T, s store.Store) {
	c := ctx(t)
	a := enqueue(t, s, store.NewJob{Kind: "x", RunAt: now.Add(-2 * time.Minute)})
	b := enqueue(t, s, store.NewJob{Kind: "x", RunAt: now.Add(-2 * time.Minute)})
	y := enqueue(t, s, store.NewJob{Kind: "y", RunAt: now.Add(-3 * time.Minute)})
	later := enqueue(t, s, store.NewJob{Kind: "x", RunAt: now.Add(time.Hour)})
	next := func(kinds ...string) int64 {
		t.Helper()
		var id int64
		_, err := s.RunJob(c, kinds, now, func(_ context.Context, _ store.Tx, j store.Job) error {
			id = j.ID
			return nil
		})
		must(t, "RunJob", err)
		return id
	}
	got := []int64{next("x"), next("x"), next("x"), next(), next("x", "y"), next("x", "y")}
	if diff := cmp.Diff([]int64{a, b, 0, 0, y, 0}, got, cmpOpts); diff != "" {
		t.Errorf("jobs claimed (-want +got):\n%s", diff)
	}
	if j, err := Inspect(s).Job(c, later); err != nil || j.State != store.JobAvailable || len(j.Payload) != 0 {
		t.Errorf("the later job = %+v, %v; want available, empty payload", j, err)
	}
	// A job enqueued without RunAt is due at once.
	soon := enqueue(t, s, store.NewJob{Kind: "z"})
	ran, err := s.RunJob(c, []string{"z"}, time.Now().Add(time.Second), auditJob)
	if err != nil || !ran {
		t.Errorf("RunJob of a job due now = %v, %v (job %d)", ran, err, soon)
	}
}

func testJobRetry(t *testing.T, s store.Store) {
	c := ctx(t)
	id := enqueue(t, s, store.NewJob{Kind: "k", Payload: []byte(`{}`), RunAt: now})
	later := now.Add(time.Hour)
	must(t, "RetryJob", s.RetryJob(c, id, later, "first failure", false))
	j, err := Inspect(s).Job(c, id)
	must(t, "Job", err)
	if j.State != store.JobAvailable || j.Attempts != 1 || j.LastError != "first failure" ||
		!j.RunAt.Equal(later) || !j.FinishedAt.IsZero() {
		t.Errorf("Job after a retry = %+v", j)
	}
	if ran, err := s.RunJob(c, []string{"k"}, now, auditJob); err != nil || ran {
		t.Errorf("RunJob before the retry is due = %v, %v; want false, nil", ran, err)
	}
	must(t, "RetryJob (final)", s.RetryJob(c, id, later, "last failure", true))
	j, err = Inspect(s).Job(c, id)
	must(t, "Job", err)
	if j.State != store.JobFailed || j.Attempts != 2 || j.LastError != "last failure" || j.FinishedAt.IsZero() {
		t.Errorf("Job after the final retry = %+v", j)
	}
	if ran, err := s.RunJob(c, []string{"k"}, later.Add(time.Hour), auditJob); err != nil || ran {
		t.Errorf("RunJob of a failed job = %v, %v; want false, nil", ran, err)
	}
	wantKind(t, "RetryJob of a failed job", s.RetryJob(c, id, later, "again", false), livestock.KindConflict)
}

func testJobCounts(t *testing.T, s store.Store) {
	c := ctx(t)
	counts, err := Inspect(s).JobCounts(c)
	must(t, "JobCounts", err)
	zero := map[store.JobState]int{store.JobAvailable: 0, store.JobDone: 0, store.JobFailed: 0}
	if diff := cmp.Diff(zero, counts, cmpOpts); diff != "" {
		t.Errorf("JobCounts of no jobs (-want +got):\n%s", diff)
	}
	backlog, err := s.JobBacklog(c)
	must(t, "JobBacklog", err)
	if diff := cmp.Diff(map[store.JobState]int{store.JobAvailable: 0, store.JobFailed: 0}, backlog, cmpOpts); diff != "" {
		t.Errorf("JobBacklog of no jobs (-want +got):\n%s", diff)
	}
	for range 4 {
		enqueue(t, s, store.NewJob{Kind: "k", RunAt: now})
	}
	failed := enqueue(t, s, store.NewJob{Kind: "f", RunAt: now})
	must(t, "RetryJob", s.RetryJob(c, failed, now, "no", true))
	if _, err := s.RunJob(c, []string{"k"}, now, auditJob); err != nil {
		t.Fatal(err)
	}
	counts, err = Inspect(s).JobCounts(c)
	must(t, "JobCounts", err)
	want := map[store.JobState]int{store.JobAvailable: 3, store.JobDone: 1, store.JobFailed: 1}
	if diff := cmp.Diff(want, counts, cmpOpts); diff != "" {
		t.Errorf("JobCounts (-want +got):\n%s", diff)
	}
	backlog, err = s.JobBacklog(c)
	must(t, "JobBacklog", err)
	delete(want, store.JobDone)
	if diff := cmp.Diff(want, backlog, cmpOpts); diff != "" {
		t.Errorf("JobBacklog (-want +got):\n%s", diff)
	}
}
