package groupcommit_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// execBatch is a Config.ExecBatch for SQLite, which has no batches: it
// runs stmts one after another on the driver's connection, as a batch
// would in one round trip.
func execBatch(ctx context.Context, driverConn any, stmts []groupcommit.Statement) error {
	c, ok := driverConn.(driver.ExecerContext)
	if !ok {
		return fmt.Errorf("a connection of %T cannot exec", driverConn)
	}
	for i, st := range stmts {
		args := make([]driver.NamedValue, len(st.Args))
		for j, a := range st.Args {
			args[j] = driver.NamedValue{Ordinal: j + 1, Value: a}
		}
		res, err := c.ExecContext(ctx, st.Query, args)
		if err != nil {
			return err
		}
		if stmts[i].Affected, err = res.RowsAffected(); err != nil {
			return err
		}
	}
	return nil
}

var errTaken = errors.New("key taken")

// claim is a fn that writes k unless a row has it, deferring the write
// when it can; a pass with savepoints writes at once and tells its
// caller when k was taken. It records the keys in the order the fns ran.
func claim(k string, ran *[]string, mu *sync.Mutex) func(context.Context, *groupcommit.Tx) error {
	return func(ctx context.Context, tx *groupcommit.Tx) error {
		mu.Lock()
		*ran = append(*ran, k)
		mu.Unlock()
		const insert = `INSERT INTO kv (k, v) VALUES ($1, 1) ON CONFLICT (k) DO NOTHING`
		if tx.Deferring() {
			tx.SetKey(k)
			tx.Later(0, k, 1, insert, k)
			return nil
		}
		res, err := tx.ExecContext(ctx, insert, k)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return errTaken
		}
		return nil
	}
}

// TestDeferredWrites: the writes of a group's pass without savepoints go
// in one batch before its commit. When one of them does not change the
// rows it must, the pass is given up and the group runs again with
// savepoints, its calls in the order of their keys; only the call whose
// write clashes fails.
func TestDeferredWrites(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{ExecBatch: execBatch})
	var mu sync.Mutex
	var ran []string
	keys := []string{"d-c", "d-b", "d-a"}
	fns := func() (fns []func(context.Context, *groupcommit.Tx) error) {
		for _, k := range keys {
			fns = append(fns, claim(k, &ran, &mu))
		}
		return fns
	}
	for i, err := range b.runAll(t, nil, fns()...) {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	s := b.g.Stats()
	if s.Batches != 1 || s.Retried != 0 {
		t.Errorf("%d batches, %d groups run again; want 1 batch, none run again", s.Batches, s.Retried)
	}

	// d-b is taken now: the group's batch fails, and it runs again.
	keys = []string{"d-e", "d-b", "d-d"}
	ran = nil
	errs := b.runAll(t, nil, fns()...)
	if diff := cmp.Diff([]error{nil, errTaken, nil}, errs, cmp.Comparer(func(x, y error) bool { return errors.Is(x, y) })); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	for _, k := range []string{"d-a", "d-b", "d-c", "d-d", "d-e"} {
		if got := b.rows(t, k); got != 1 {
			t.Errorf("%s: %d rows, want 1", k, got)
		}
	}
	// The pass without savepoints ran the calls as they queued, in any
	// order; the one with savepoints in the order of their keys.
	if len(ran) != 6 || !slices.IsSorted(ran[3:]) {
		t.Errorf("fns ran %q; want 3 in the first pass, then the second pass in key order", ran)
	}
	if r := b.g.Stats().Retried; r != 1 {
		t.Errorf("%d groups ran again; want 1", r)
	}
}

// TestDeadline: a group on a connection with ConnDeadline runs under the
// latest deadline of its callers, set before it begins and cleared once
// it ends; a caller with no deadline leaves the group without one.
func TestDeadline(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var set []time.Time
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{ConnDeadline: func(_ any, d time.Time) error {
		mu.Lock()
		set = append(set, d)
		mu.Unlock()
		return nil
	}})
	deadline := time.Now().Add(time.Hour)
	ctx, cancel := context.WithDeadline(t.Context(), deadline)
	defer cancel()
	if err := b.g.Run(ctx, put("deadline"), groupcommit.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := b.g.Run(context.Background(), put("none"), groupcommit.Options{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Time{deadline, {}}, set, cmp.Comparer(time.Time.Equal)); diff != "" {
		t.Errorf("deadlines set (-want +got):\n%s", diff)
	}
}

// TestStatementsKept: a pool that keeps statements prepares one its
// transactions run, and transactions running the kept statement write as
// before, whether they commit or roll back.
func TestStatementsKept(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	p := groupcommit.NewPool(b.pool.DB, true)
	const insert = `INSERT INTO kv (k, v) VALUES ($1, 2)`
	write := func(k string, commit bool) {
		t.Helper()
		tx, err := p.Begin(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(t.Context(), insert, k); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	write("kept-0", true)
	// The statement is prepared on another goroutine once the connection
	// is free: wait for it, but not for ever.
	for wait := time.Now(); !p.Kept(insert) && time.Since(wait) < 30*time.Second; {
		time.Sleep(time.Millisecond)
	}
	if !p.Kept(insert) {
		t.Fatal("the insert was never kept")
	}
	write("kept-1", true)
	write("kept-2", false)
	for k, want := range map[string]int{"kept-0": 1, "kept-1": 1, "kept-2": 0} {
		if got := b.rows(t, k); got != want {
			t.Errorf("%s: %d rows, want %d", k, got, want)
		}
	}
}
