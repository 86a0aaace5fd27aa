package sqldb

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// What a committer does with one group of calls (see group.go).

// Each fn of a shared transaction runs in this savepoint, released (or
// rolled back to) before the next fn opens it again.
const (
	savepointSQL  = `SAVEPOINT shared`
	releaseSQL    = `RELEASE SAVEPOINT shared`
	rollbackToSQL = `ROLLBACK TO SAVEPOINT shared`
)

// A group first runs optimistically: its fns one after another with no
// savepoint between them. Most groups have no failing fn, and a savepoint
// is not free: on SQLite every page a fn changes is first copied into the
// sub-journal, and the hot pages (the last leaf of every index a
// submission writes) are changed by every fn of a group, so each fn copied
// them again (a tenth of the writer's time); on PostgreSQL SAVEPOINT and
// RELEASE are two round trips a fn. When a fn fails, the whole transaction
// is rolled back and the group runs again with a savepoint around each fn,
// as before; the store's next groups keep the savepoints (afterFailure),
// so a stream of failing calls costs a group run twice in afterFailure + 1.
// A fn may so run twice, its first run's writes undone: InSharedTx's
// contract says so. A failed commit is never run again: the server may
// have committed it, and running the fns again would write twice.
const afterFailure = 16

// runGroup runs the fns of batch in one transaction and returns what each
// caller is to be told, and whether a fn failed in a run without
// savepoints (the store then keeps them for a while). careful asks
// for savepoints from the start. A lone fn needs no savepoint: its error
// rolls the whole transaction back.
func (s *Store) runGroup(batch []*call, careful bool) (errs []error, failed bool) {
	deadline := groupDeadline(batch)  // groupdeadline.go
	taken := make([]bool, len(batch)) // the calls this committer has taken from their callers
	if !careful && len(batch) > 1 {
		if errs, ok := s.runPass(deadline, batch, taken, false); ok {
			return errs, false
		}
		s.group.retried.Add(1)
		failed = true
	}
	errs, _ = s.runPass(deadline, batch, taken, len(batch) > 1)
	return errs, failed
}

// runPass runs batch once in a transaction, each fn in a savepoint when
// shared is set. Without savepoints it gives up at the first fn that
// fails, rolling everything back, and reports !ok: nothing was committed
// and the calls are to run again. taken marks the calls taken from their
// callers (they may no longer abandon them), across passes.
func (s *Store) runPass(deadline time.Time, batch []*call, taken []bool, shared bool) (errs []error, ok bool) {
	errs = make([]error, len(batch))
	fail := func(err error) ([]error, bool) {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return errs, true
	}
	began := time.Now()
	sqlTx, release, err := s.beginGroup(deadline)
	if err != nil {
		return fail(s.d.Error("InSharedTx: begin", err))
	}
	defer release()
	ctx := context.Background() // the deadline is the connection's
	t := &tx{s: s, tx: sqlTx}   // one for the pass: its fns run one after another
	optimistic := !shared && len(batch) > 1
	if optimistic {
		t.optimistic = true
		for _, c := range batch {
			if c.job {
				t.jobCalls++
			}
		}
		if sqlTx.batch != nil {
			sqlTx.batch.on, sqlTx.batch.idWant = true, len(batch)
		}
	}
	kept := 0
	for _, i := range passOrder(batch, shared) {
		c := batch[i]
		if !taken[i] {
			if !c.state.CompareAndSwap(queued, running) {
				continue // its caller has gone with ctx's error
			}
			taken[i] = true
		}
		t.call = c
		if optimistic {
			if errs[i] = s.run(ctx, t, c); errs[i] != nil || sqlTx.batch != nil && sqlTx.batch.failed != nil {
				rollback(sqlTx.Tx)
				return nil, false
			}
			kept++
			continue
		}
		var broken error
		if errs[i], broken = s.apply(ctx, t, c, shared); broken != nil {
			rollback(sqlTx.Tx)
			return fail(broken)
		}
		if errs[i] == nil {
			kept++
		}
	}
	if kept == 0 {
		rollback(sqlTx.Tx)
		return errs, true
	}
	if err := sqlTx.deferFailed(ctx); err != nil { // only an optimistic pass defers
		rollback(sqlTx.Tx)
		return nil, false
	}
	start := time.Now()
	if err := sqlTx.Commit(); err != nil {
		s.group.failed.Add(1)
		return fail(s.d.Error("InSharedTx: commit", err))
	}
	end := time.Now()
	s.group.commitTime.observe(end.Sub(start))
	s.group.groupTime.observe(end.Sub(began))
	// The calls before the commit: GroupStats reads the commits first, so
	// a reading that counts this commit counts its calls too.
	s.group.kept.Add(int64(kept))
	s.group.commits.Add(1)
	return errs, true
}

// passOrder is the order a pass runs batch's calls in: as they came,
// but for a pass with savepoints, which runs them by the keys of the rows
// their optimistic pass inserted (call.key; deferred.go says why).
func passOrder(batch []*call, shared bool) []int {
	order := make([]int, len(batch))
	for i := range order {
		order[i] = i
	}
	if shared {
		slices.SortStableFunc(order, func(x, y int) int { return strings.Compare(batch[x].key, batch[y].key) })
	}
	return order
}

// apply runs c's fn on t (its statements under the group's context bg),
// inside a savepoint when t is shared, and returns
// fn's outcome; broken reports that t can no longer be used at all.
func (s *Store) apply(bg context.Context, t *tx, c *call, shared bool) (err, broken error) {
	if !shared {
		return s.run(bg, t, c), nil
	}
	if _, err := t.tx.ExecContext(bg, savepointSQL); err != nil {
		return nil, s.d.Error("InSharedTx: savepoint", err)
	}
	if err = s.run(bg, t, c); err == nil {
		if _, err = t.tx.ExecContext(bg, releaseSQL); err == nil {
			return nil, nil
		}
		// fn went on after a failed statement: PostgreSQL will not
		// release a savepoint whose work is aborted.
		err = s.d.Error("InSharedTx: release", err)
	}
	if _, rerr := t.tx.ExecContext(bg, rollbackToSQL); rerr != nil {
		return err, s.d.Error("InSharedTx: rollback to savepoint", rerr)
	}
	if _, rerr := t.tx.ExecContext(bg, releaseSQL); rerr != nil {
		return err, s.d.Error("InSharedTx: release", rerr)
	}
	return err, nil
}

// run calls c's fn with ctx's values, and the group's context instead of
// its cancellation, and turns a panic into an error: the committer serves
// everyone else.
func (s *Store) run(group context.Context, t *tx, c *call) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: InSharedTx: fn panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return c.fn(fnContext{Context: group, values: c.ctx}, t)
}
