package groupcommit

import (
	"context"
	"database/sql"
	"sync/atomic"
)

// Tx is a transaction of a Pool: its own (Pool.Begin) or a pass of a
// group's, which holds its connection (conn) and, while it defers writes,
// their batch (deferred.go): every statement sent through it sends them
// first. Commit and Rollback are database/sql's; a group's pass commits
// or rolls back itself.
type Tx struct {
	*sql.Tx
	p     *Pool
	conn  *sql.Conn // nil unless the transaction runs a group
	batch *batch    // nil unless the group can defer writes (Config.ExecBatch)
	// What the fns of a group's pass may ask about it; zero outside a group.
	optimistic    bool    // the pass runs without savepoints (run.go)
	calls, tagged int     // the calls of the pass, and those Options.Tagged
	key           *string // the key of the call whose fn runs now
	// statements counts the statements sent through the transaction
	// (Stats.Statements); nil outside a group.
	statements *atomic.Int64
}

// Optimistic reports whether the transaction is a group's pass without
// savepoints between its fns: one fn's failure then rolls back every fn
// of the pass, and the group runs again with savepoints (run.go). Reads
// such a pass made once stay true for it, and locks it took stay held,
// until it ends; in a pass with savepoints, a lock taken inside a fn's
// savepoint is let go when that fn fails.
func (t *Tx) Optimistic() bool { return t.optimistic }

// Calls is how many calls the group's pass runs, and Tagged how many of
// them were queued with Options.Tagged; both 0 outside a group.
func (t *Tx) Calls() int  { return t.calls }
func (t *Tx) Tagged() int { return t.tagged }

// SetKey sets the key of the call whose fn runs now. A pass with
// savepoints runs its calls in the order of the keys their optimistic
// pass set, so that concurrent groups write rows in one order (deferred.go
// says why); calls with no key go first. Outside a group it does nothing.
func (t *Tx) SetKey(key string) {
	if t.key != nil {
		*t.key = key
	}
}

func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.flush(ctx)
	t.count()
	if st := t.p.stmt(query); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.flush(ctx)
	t.count()
	if st := t.p.stmt(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	t.flush(ctx)
	t.count()
	if st := t.p.stmt(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// count counts a statement sent through a group's transaction.
func (t *Tx) count() {
	if t.statements != nil {
		t.statements.Add(1)
	}
}

// rollback ends a transaction whose outcome no longer matters.
func rollback(t *sql.Tx) { _ = t.Rollback() }
