package groupcommit

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
// as before; the group's next groups keep the savepoints (afterFailure),
// so a stream of failing calls costs a group run twice in afterFailure + 1.
// A fn may so run twice, its first run's writes undone: the package's
// contract says so. A failed commit is never run again: the server may
// have committed it, and running the fns again would write twice.
const afterFailure = 16

// runGroup runs the fns of batch in one transaction and returns what each
// caller is to be told, and whether a fn failed in a run without
// savepoints (the group then keeps them for a while). careful asks
// for savepoints from the start. A lone fn needs no savepoint: its error
// rolls the whole transaction back.
func (g *Group[S]) runGroup(batch []*call[S], careful bool) (errs []error, failed bool) {
	deadline := groupDeadline(batch)  // deadline.go
	taken := make([]bool, len(batch)) // the calls this committer has taken from their callers
	if !careful && len(batch) > 1 {
		if errs, ok := g.runPass(deadline, batch, taken, false); ok {
			return errs, false
		}
		g.stats.retried.Add(1)
		failed = true
	}
	errs, _ = g.runPass(deadline, batch, taken, len(batch) > 1)
	return errs, failed
}

// runPass runs batch once in a transaction, each fn in a savepoint when
// shared is set. Without savepoints it gives up at the first fn that
// fails, rolling everything back, and reports !ok: nothing was committed
// and the calls are to run again. taken marks the calls taken from their
// callers (they may no longer abandon them), across passes.
func (g *Group[S]) runPass(deadline time.Time, batch []*call[S], taken []bool, shared bool) (errs []error, ok bool) {
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
	tx, release, err := g.begin(deadline)
	if err != nil {
		return fail(g.cfg.Error("begin", err))
	}
	defer release()
	ctx := context.Background() // the deadline is the connection's
	optimistic := !shared && len(batch) > 1
	tx.calls = len(batch)
	for _, c := range batch {
		if c.opts.Tagged {
			tx.tagged++
		}
	}
	if optimistic {
		tx.optimistic = true
		if tx.batch != nil {
			tx.batch.on = true
		}
	}
	s := g.cfg.Pass(tx) // one for the pass: its fns run one after another
	kept := 0
	for _, i := range passOrder(batch, shared) {
		c := batch[i]
		if !taken[i] {
			if !c.state.CompareAndSwap(queued, running) {
				continue // its caller has gone with ctx's error
			}
			taken[i] = true
		}
		tx.key = &c.key
		if optimistic {
			if errs[i] = run(ctx, s, c); errs[i] != nil || tx.batch != nil && tx.batch.failed != nil {
				rollback(tx.Tx)
				return nil, false
			}
			kept++
			continue
		}
		var broken error
		if errs[i], broken = g.apply(ctx, tx, s, c, shared); broken != nil {
			rollback(tx.Tx)
			return fail(broken)
		}
		if errs[i] == nil {
			kept++
		}
	}
	tx.key = nil
	if kept == 0 {
		rollback(tx.Tx)
		return errs, true
	}
	if err := tx.deferFailed(ctx); err != nil { // only an optimistic pass defers
		rollback(tx.Tx)
		return nil, false
	}
	start := time.Now()
	if err := tx.Commit(); err != nil {
		g.stats.failed.Add(1)
		return fail(g.cfg.Error("commit", err))
	}
	end := time.Now()
	g.stats.committed(kept, end.Sub(start), end.Sub(began))
	return errs, true
}

// passOrder is the order a pass runs batch's calls in: as they came,
// but for a pass with savepoints, which runs them by the keys their
// optimistic pass set (Tx.SetKey).
func passOrder[S any](batch []*call[S], shared bool) []int {
	order := make([]int, len(batch))
	for i := range order {
		order[i] = i
	}
	if shared {
		slices.SortStableFunc(order, func(x, y int) int { return strings.Compare(batch[x].key, batch[y].key) })
	}
	return order
}

// apply runs c's fn on s (its statements under the group's context bg),
// inside a savepoint of tx when shared is set, and returns fn's outcome;
// broken reports that tx can no longer be used at all.
func (g *Group[S]) apply(bg context.Context, tx *Tx, s S, c *call[S], shared bool) (err, broken error) {
	if !shared {
		return run(bg, s, c), nil
	}
	if _, err := tx.ExecContext(bg, savepointSQL); err != nil {
		return nil, g.cfg.Error("savepoint", err)
	}
	if err = run(bg, s, c); err == nil {
		if _, err = tx.ExecContext(bg, releaseSQL); err == nil {
			return nil, nil
		}
		// fn went on after a failed statement: PostgreSQL will not
		// release a savepoint whose work is aborted.
		err = g.cfg.Error("release", err)
	}
	if _, rerr := tx.ExecContext(bg, rollbackToSQL); rerr != nil {
		return err, g.cfg.Error("rollback to savepoint", rerr)
	}
	if _, rerr := tx.ExecContext(bg, releaseSQL); rerr != nil {
		return err, g.cfg.Error("release", rerr)
	}
	return err, nil
}

// run calls c's fn with c's values, and the group's context instead of
// its cancellation, and turns a panic into an error: the committer serves
// everyone else.
func run[S any](group context.Context, s S, c *call[S]) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("groupcommit: fn panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return c.fn(fnContext{Context: group, values: c.ctx}, s)
}
