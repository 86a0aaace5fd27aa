package groupcommit

import (
	"context"
	"slices"
	"time"
)

// A shared transaction is not cancelled when one of its callers gives up:
// that would roll back the others' work. But it must not run forever
// either. If the database stops answering in the middle of a statement
// (a network partition, a frozen server), nothing else ends the wait, and
// every caller whose fn has started waits with it, far past its own
// deadline. So the group runs under the latest deadline of its callers:
// once that has passed no caller is still waiting for a useful answer, and
// the statement in flight is abandoned and the transaction rolled back,
// which each caller learns as the error of the statement (Config.Error). A group with a caller
// that has no deadline has none.
//
// Only the callers waiting on an answer count, when the group has any
// (not Options.Background): a job's deadline (jobs.Options.JobTimeout, 30 s) is far longer than a
// request's, and under a partition a POST that shared its group with a job
// waited for the job's deadline, 4 s in TestOutage/stall against a
// request timeout of 1 s. A job cut short by a request's deadline is
// rolled back like the rest and runs again later.
//
// The deadline is the network connection's (Config.ConnDeadline), set
// when the group takes its connection and cleared when it gives it back,
// not its statements' context's. Given a context that can be done,
// database/sql starts two goroutines for each query to watch it and the
// driver one more; with their mutexes and timers that took about a tenth
// of the server's CPU under the movements benchmark, most of it on the
// committers, which run every write. A read or write of the connection past
// its deadline fails at once, and the driver closes the connection.
//
// SQLite's groups have no deadline (ConnDeadline nil). Its writer is a
// file of this process, read and written by point statements: no network
// can freeze one, and sqlite3_interrupt could not end a write() that the
// disk stalls anyway.

// groupDeadline is the latest deadline of batch's callers waiting on an
// answer (of its background calls, when it has no such caller), or zero when one of
// those has none.
func groupDeadline[S any](batch []*call[S]) time.Time {
	foreground := slices.ContainsFunc(batch, func(c *call[S]) bool { return !c.opts.Background })
	var latest time.Time
	for _, c := range batch {
		if foreground && c.opts.Background {
			continue
		}
		d, ok := c.ctx.Deadline()
		if !ok {
			return time.Time{}
		}
		if d.After(latest) {
			latest = d
		}
	}
	return latest
}

// begin starts a group's transaction on a connection of the writer
// whose network deadline is deadline (none when zero, or when the tuning
// sets none), and returns with it the function that gives the connection
// back once the transaction has ended.
func (g *Group[S]) begin(deadline time.Time) (*Tx, func(), error) {
	setDeadline := !deadline.IsZero() && g.cfg.ConnDeadline != nil
	if !setDeadline && g.cfg.ExecBatch == nil {
		t, err := g.cfg.Pool.Begin(context.Background())
		if t != nil {
			t.statements = &g.stats.statements
		}
		return t, func() {}, err
	}
	// Waiting for a connection is bounded by the deadline too; the
	// transaction's context must not be, or database/sql watches it.
	ctx := context.Background()
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	conn, err := g.cfg.Pool.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	set := func(t time.Time) error {
		return conn.Raw(func(driverConn any) error { return g.cfg.ConnDeadline(driverConn, t) })
	}
	release := func() {
		// A connection the deadline broke is closed already; database/sql
		// then drops it rather than pooling it.
		if setDeadline {
			_ = set(time.Time{})
		}
		_ = conn.Close()
	}
	if setDeadline {
		if err := set(deadline); err != nil {
			release()
			return nil, nil, err
		}
	}
	if err := ctx.Err(); err != nil { // the deadline passed while it waited
		release()
		return nil, nil, err
	}
	t, err := conn.BeginTx(context.Background(), nil)
	if err != nil {
		release()
		return nil, nil, err
	}
	st := &Tx{Tx: t, p: g.cfg.Pool, conn: conn, statements: &g.stats.statements}
	if g.cfg.ExecBatch != nil {
		st.batch = &batch{send: g.cfg.ExecBatch, sent: &g.stats.batches}
	}
	return st, release, nil
}

// fnContext is what one fn of the group is given: its caller's values,
// but neither its cancellation nor its deadline, which the group's
// connection enforces.
type fnContext struct {
	context.Context                 // context.Background()
	values          context.Context // the caller's
}

func (c fnContext) Value(key any) any { return c.values.Value(key) }
