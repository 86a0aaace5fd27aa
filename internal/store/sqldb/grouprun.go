package sqldb

import (
	"context"
	"fmt"
	"runtime/debug"
)

// What a committer does with one group of calls (see group.go).

// Each fn of a shared transaction runs in this savepoint, released (or
// rolled back to) before the next fn opens it again.
const (
	savepointSQL  = `SAVEPOINT shared`
	releaseSQL    = `RELEASE SAVEPOINT shared`
	rollbackToSQL = `ROLLBACK TO SAVEPOINT shared`
)

// runGroup runs the fns of batch in one transaction and returns what each
// caller is to be told. A lone fn needs no savepoint: its error rolls the
// whole transaction back.
func (s *Store) runGroup(batch []*call) []error {
	errs := make([]error, len(batch))
	fail := func(err error) []error {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return errs
	}
	ctx, cancel := groupContext(batch) // groupdeadline.go
	defer cancel()
	sqlTx, err := s.w.begin(ctx)
	if err != nil {
		return fail(s.d.Error("InSharedTx: begin", err))
	}
	t := &tx{s: s, tx: sqlTx} // one for the group: its fns run one after another
	shared, kept := len(batch) > 1, 0
	for i, c := range batch {
		if !c.state.CompareAndSwap(queued, running) {
			continue // its caller has gone with ctx's error
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
		return errs
	}
	if err := sqlTx.Commit(); err != nil {
		return fail(s.d.Error("InSharedTx: commit", err))
	}
	s.group.commits.Add(1)
	return errs
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

// run calls c's fn with ctx's values, and the group's deadline instead of
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
