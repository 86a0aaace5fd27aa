package registration

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestAsyncRegistered: an async submission is on disk, Pending, with its
// job, before the 202; the job registers the animal and completes the
// registration in one commit, and a second job for it changes nothing.
func TestAsyncRegistered(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, id := b.user("keeper1"), tag(t, "442501", 101)
		before := b.rows()
		a := b.mustSubmit(k1, calf(id, tag(t, "442501", 1), "2026-06-07"), true, "", 202)

		var q Queued
		if err := json.Unmarshal(a.Body, &q); err != nil {
			t.Fatal(err)
		}
		want := Queued{RequestIDDoc: a.RequestID, ID: a.RequestID, RequestStatus: "Pending", RequestDate: "2026-06-10T11:00:00Z",
			RequestStatusURL: "/requeststatus/" + a.RequestID} // as the live example writes it
		if diff := cmp.Diff(want, q); a.RequestID == "" || diff != "" {
			t.Errorf("202 body (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(rows{before.Registrations + 1, before.Animals, before.Jobs + 1, before.Replies}, b.rows()); diff != "" {
			t.Errorf("rows before the job (-want +got):\n%s", diff)
		}
		r := b.registration(a.RequestID)
		wantReg := store.Registration{ID: a.RequestID, UserName: "keeper1", Async: true, Status: store.RegistrationPending,
			RequestDate: start, UpdatedDate: start, NextPollAt: start.Add(5 * time.Second), CorrelationID: "generated-1"}
		if diff := cmp.Diff(wantReg, r, cmpopts.IgnoreFields(store.Registration{}, "Body"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("queued registration (-want +got):\n%s", diff)
		}
		if _, err := b.store.Animal(b.ctx, id); !livestock.IsNotFound(err) {
			t.Errorf("animal before the job: %v, want not found", err)
		}

		b.clock.Add(time.Minute)
		b.runJob()
		wantReg.Status, wantReg.Identifier, wantReg.UpdatedDate = store.RegistrationCompleted, id, start.Add(time.Minute)
		if diff := cmp.Diff(wantReg, b.registration(a.RequestID), cmpopts.IgnoreFields(store.Registration{}, "Body"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("completed registration (-want +got):\n%s", diff)
		}
		// Received when the 202 was given, not when the job ran.
		if animal, err := b.store.Animal(b.ctx, id); err != nil || animal.CPH.String() != farm1 || animal.RegisteredBy != "keeper1" ||
			!animal.ReceivedDate.Equal(start) {
			t.Errorf("animal after the job: on %s by %q, received %v (%v); want on %s by keeper1, received %v",
				animal.CPH, animal.RegisteredBy, animal.ReceivedDate, err, farm1, start)
		}
		if ran, err := b.runner.RunOne(b.ctx, []string{JobKind}); ran || err != nil {
			t.Errorf("a second RunOne = %v, %v; want no job due", ran, err)
		}

		// A stray second job for a decided registration leaves it be.
		b.enqueue(jobPayload{RegistrationID: a.RequestID})
		b.runJob()
		if diff := cmp.Diff(wantReg, b.registration(a.RequestID), cmpopts.IgnoreFields(store.Registration{}, "Body"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("after a stray job (-want +got):\n%s", diff)
		}
		if c := b.jobCounts(); c[store.JobDone] != 2 || c[store.JobFailed] != 0 {
			t.Errorf("job counts = %v", c)
		}
	})
}

// TestAsyncSameAnimalTwice: two queued registrations of one calf; the
// first job registers it, the second fails V032 and registers nothing.
func TestAsyncSameAnimalTwice(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, id := b.user("keeper1"), tag(t, "442501", 101)
		body := calf(id, tag(t, "442501", 1), "2026-06-07")
		first := b.mustSubmit(k1, body, true, "", 202)
		second := b.mustSubmit(k1, body, true, "", 202)
		before := b.rows()
		b.runJob()
		b.runJob()
		if r := b.registration(first.RequestID); r.Status != store.RegistrationCompleted {
			t.Errorf("first = %s %v", r.Status, r.Errors)
		}
		r := b.registration(second.RequestID)
		if diff := cmp.Diff([]problem{{livestock.CodeRegistered, "/animal/identifier"}}, fieldProblems(r.Errors)); r.Status != store.RegistrationFailed || diff != "" {
			t.Errorf("second = %s, errors (-want +got):\n%s", r.Status, diff)
		}
		if after := b.rows(); after.Animals != before.Animals+1 {
			t.Errorf("animals %d → %d, want one more", before.Animals, after.Animals)
		}
	})
}

// TestJobPayloads: a job whose payload cannot be read, or which names no
// registration, fails for good at once rather than being retried.
func TestJobPayloads(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		b.enqueue(json.RawMessage(`{"registrationId": 7}`))
		b.enqueue(jobPayload{RegistrationID: "00000000-0000-0000-0000-000000000000"})
		b.runJob()
		b.runJob()
		if c := b.jobCounts(); c[store.JobFailed] != 2 || c[store.JobAvailable] != 0 {
			t.Errorf("job counts = %v, want both failed", c)
		}
	})
}

func (b *bundle) registration(id string) store.Registration {
	b.t.Helper()
	r, err := b.store.Registration(b.ctx, id)
	if err != nil {
		b.t.Fatal(err)
	}
	return r
}

// enqueue adds a registration job with payload v.
func (b *bundle) enqueue(v any) {
	b.t.Helper()
	payload, _ := json.Marshal(v)
	err := b.store.InTx(b.ctx, func(ctx context.Context, tx store.Tx) error {
		_, err := tx.EnqueueJob(ctx, store.NewJob{Kind: JobKind, Payload: payload})
		return err
	})
	if err != nil {
		b.t.Fatal(err)
	}
}

func (b *bundle) jobCounts() map[store.JobState]int {
	b.t.Helper()
	c, err := storetest.Inspect(b.store).JobCounts(b.ctx)
	if err != nil {
		b.t.Fatal(err)
	}
	return c
}

// TestPanickingJobFails: a job whose handler panics, here after it has
// registered the animal, ends its registration Failed with an internal
// error rather than leaving it Pending for ever; the panic's writes are
// rolled back, and the worker goes on to the next job.
func TestPanickingJobFails(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, id := b.user("keeper1"), tag(t, "442501", 101)
		a := b.mustSubmit(k1, calf(id, tag(t, "442501", 1), "2026-06-07"), true, "", 202)
		next := b.mustSubmit(k1, calf(tag(t, "442501", 102), tag(t, "442501", 1), "2026-06-07"), true, "", 202)
		panicked := false
		b.runner.Register(JobKind, func(ctx context.Context, tx store.Tx, j store.Job) error {
			if panicked {
				return b.svc.applyJob(ctx, tx, j)
			}
			if err := b.svc.applyJob(ctx, tx, j); err != nil {
				return err
			}
			panicked = true
			panic("handler bug")
		})
		b.runJob()
		r := b.registration(a.RequestID)
		if diff := cmp.Diff([]livestock.Code{livestock.CodeInternal}, codes(r.Errors)); r.Status != store.RegistrationFailed || diff != "" {
			t.Errorf("after the panic: %s, errors (-want +got):\n%s", r.Status, diff)
		}
		if _, err := b.store.Animal(b.ctx, id); !livestock.IsNotFound(err) {
			t.Errorf("animal after the panic: %v, want not found (rolled back)", err)
		}
		b.runJob()
		if r := b.registration(next.RequestID); r.Status != store.RegistrationCompleted {
			t.Errorf("the next job: %s %v, want Completed", r.Status, r.Errors)
		}
		if c := b.jobCounts(); c[store.JobFailed] != 1 || c[store.JobDone] != 1 {
			t.Errorf("job counts = %v, want one failed, one done", c)
		}
	})
}

// TestLastAttemptKeepsNothing: a job whose last attempt fails after it has
// registered the animal (the write done, the call then reporting an error)
// ends its registration Failed with an internal error, and the animal is
// not registered: the attempt's writes are not committed with the status.
func TestLastAttemptKeepsNothing(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, id := b.user("keeper1"), tag(t, "442501", 101)
		a := b.mustSubmit(k1, calf(id, tag(t, "442501", 1), "2026-06-07"), true, "", 202)
		b.runner.Register(JobKind, func(ctx context.Context, tx store.Tx, j store.Job) error {
			return b.svc.applyJob(ctx, registersThenFails{tx}, j)
		})
		b.runJob()
		r := b.registration(a.RequestID)
		if diff := cmp.Diff([]livestock.Code{livestock.CodeInternal}, codes(r.Errors)); r.Status != store.RegistrationFailed || diff != "" {
			t.Errorf("after the last attempt: %s, errors (-want +got):\n%s", r.Status, diff)
		}
		if _, err := b.store.Animal(b.ctx, id); !livestock.IsNotFound(err) {
			t.Errorf("animal after the last attempt failed: %v, want not found", err)
		}
		if c := b.jobCounts(); c[store.JobFailed] != 1 {
			t.Errorf("job counts = %v, want one failed", c)
		}
	})
}

// registersThenFails registers the animal and then reports a failure, as
// a connection lost after the write would; the failure is permanent, so
// the attempt is the job's last.
type registersThenFails struct{ store.Tx }

func (f registersThenFails) RegisterAnimal(ctx context.Context, a store.Animal) error {
	if err := f.Tx.RegisterAnimal(ctx, a); err != nil {
		return err
	}
	return jobs.Permanent(errors.New("injected failure after the write"))
}

func codes(fs []livestock.FieldError) []livestock.Code {
	var out []livestock.Code
	for _, f := range fs {
		out = append(out, f.Code)
	}
	return out
}
