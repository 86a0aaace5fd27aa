package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

var errFn = errors.New("the function failed")

// enqueue adds one job in a transaction of its own.
func enqueue(t *testing.T, s store.Store, j store.NewJob) int64 {
	t.Helper()
	var id int64
	must(t, "InTx(EnqueueJob)", s.InTx(ctx(t), func(c context.Context, tx store.Tx) (err error) {
		id, err = tx.EnqueueJob(c, j)
		return err
	}))
	return id
}

func testInTx(t *testing.T, s store.Store) {
	c := ctx(t)
	var id int64
	err := s.InTx(c, func(c context.Context, tx store.Tx) (err error) {
		if id, err = tx.EnqueueJob(c, store.NewJob{Kind: "k", Payload: []byte(`{}`)}); err != nil {
			return err
		}
		if err := tx.Audit(c, store.AuditEntry{UserName: "u", Action: "create", Subject: "s"}); err != nil {
			return err
		}
		// A transaction sees its own writes.
		if got, err := AuditEntries(c, tx, "s"); err != nil || len(got) != 1 {
			return fmt.Errorf("AuditEntries inside = %v, %v; want one line", got, err)
		}
		return nil
	})
	must(t, "InTx", err)
	if _, err := Inspect(s).Job(c, id); err != nil {
		t.Errorf("Job after commit: %v", err)
	}
	if got := Audit(t, s, "s"); len(got) != 1 || got[0].At.IsZero() || got[0].At.Location() != time.UTC {
		t.Errorf("audit after commit = %+v; want one line, at a UTC time", got)
	}

	err = s.InTx(c, func(c context.Context, tx store.Tx) (err error) {
		if id, err = tx.EnqueueJob(c, store.NewJob{Kind: "k", Payload: []byte(`{}`)}); err != nil {
			return err
		}
		if err := tx.Audit(c, store.AuditEntry{UserName: "u", Action: "create", Subject: "rolled back"}); err != nil {
			return err
		}
		return errFn
	})
	if err != errFn {
		t.Errorf("InTx = %v; want the function's own error", err)
	}
	_, err = Inspect(s).Job(c, id)
	wantKind(t, "Job after rollback", err, livestock.KindNotFound)
	if got := Audit(t, s, "rolled back"); len(got) != 0 {
		t.Errorf("audit after rollback = %+v; want none", got)
	}
}

// testInTxPanic checks that a panic rolls back, goes on, and leaves the
// store usable (the writer is given back).
func testInTxPanic(t *testing.T, s store.Store) {
	c := ctx(t)
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the panic to go on", r)
			}
		}()
		_ = s.InTx(c, func(c context.Context, tx store.Tx) error {
			if err := tx.Audit(c, store.AuditEntry{Subject: "panic"}); err != nil {
				return err
			}
			panic("boom")
		})
	}()
	if got := Audit(t, s, "panic"); len(got) != 0 {
		t.Errorf("audit after a panic = %+v; want none", got)
	}
}

// testTimes checks that instants come back in UTC at microsecond precision,
// and that comparisons are by instant, whatever zone they were bound in.
func testTimes(t *testing.T, s store.Store) {
	c := ctx(t)
	entries := []store.AuditEntry{
		{At: base.Add(time.Second), UserName: "u", Action: "b", Subject: "t", CorrelationID: "c2", Detail: "d2"},
		{At: base, UserName: "u", Action: "a", Subject: "t", CorrelationID: "c1", Detail: "d1"},
		{At: base.In(time.UTC).Add(time.Second), UserName: "u", Action: "c", Subject: "t"},
	}
	must(t, "InTx(Audit)", s.InTx(c, func(c context.Context, tx store.Tx) error {
		for _, e := range entries {
			if err := tx.Audit(c, e); err != nil {
				return err
			}
		}
		return nil
	}))
	want := []store.AuditEntry{entries[1], entries[0], entries[2]} // oldest first, then as written
	for i := range want {
		want[i].At = stored(want[i].At)
	}
	if diff := cmp.Diff(want, Audit(t, s, "t"), cmpOpts); diff != "" {
		t.Errorf("AuditEntries (-want +got):\n%s", diff)
	}

	// run_at <= now compares instants: a job due at base (bound at -05:00)
	// is not due a microsecond earlier in UTC, and is due at that instant.
	id := enqueue(t, s, store.NewJob{Kind: "k", Payload: []byte(`{}`), RunAt: base})
	noop := func(context.Context, store.Tx, store.Job) error { return nil }
	ran, err := s.RunJob(c, []string{"k"}, stored(base).Add(-time.Microsecond), noop)
	if err != nil || ran {
		t.Errorf("RunJob a microsecond early = %v, %v; want false, nil", ran, err)
	}
	ran, err = s.RunJob(c, []string{"k"}, stored(base), noop)
	if err != nil || !ran {
		t.Errorf("RunJob at run_at = %v, %v; want true, nil", ran, err)
	}
	// A whole second sorts before the instants just after it.
	whole := time.Date(2030, 1, 1, 0, 0, 5, 0, time.UTC)
	enqueue(t, s, store.NewJob{Kind: "w", RunAt: whole})
	ran, err = s.RunJob(c, []string{"w"}, whole.Add(100*time.Millisecond), noop)
	if err != nil || !ran {
		t.Errorf("RunJob 100ms after a job due at a whole second = %v, %v; want true, nil", ran, err)
	}
	j, err := Inspect(s).Job(c, id)
	must(t, "Job", err)
	if !j.RunAt.Equal(stored(base)) || j.RunAt.Location() != time.UTC || j.FinishedAt.Location() != time.UTC {
		t.Errorf("job times = run %v, finished %v; want run %v, all UTC", j.RunAt, j.FinishedAt, stored(base))
	}
}
