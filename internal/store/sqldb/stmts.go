package sqldb

import (
	"context"
	"database/sql"
	"sync"
)

// Prepared statements, kept. modernc's SQLite parses a query string each
// time it is run unless it runs a prepared statement, and parsing was a
// quarter of the server's CPU under a load of registrations, half of what
// the one committer spent. So on such a driver (Tuning.KeepStatements)
// a pool prepares each query once per connection and keeps it: the first
// run of a query goes unprepared and asks for it to be prepared, on
// another goroutine, since inside a transaction the writer's one
// connection is busy until the transaction ends. pgx keeps its own
// statements, so PostgreSQL passes straight through.
//
// A kept statement has one cursor per connection: a query must not run
// again in a transaction while rows of its last run are still open (no
// query here does: rows are read to the end and closed first).

// maxStatements bounds the statements kept per pool: queries built from
// filters come in many shapes, and those past the bound run unprepared.
const maxStatements = 256

// pool is a database/sql pool that keeps its statements when kept is set.
type pool struct {
	*sql.DB
	kept *statements // nil: the driver keeps its own
}

// statements are the prepared statements of one pool, by query; nil while
// one is being prepared or could not be.
type statements struct {
	mu        sync.Mutex
	m         map[string]*sql.Stmt
	closed    bool
	preparing sync.WaitGroup
}

func newPool(db *sql.DB, keep bool) *pool {
	p := &pool{DB: db}
	if keep {
		p.kept = &statements{m: map[string]*sql.Stmt{}}
	}
	return p
}

// stmt is query's prepared statement, or nil when there is none yet.
func (p *pool) stmt(query string) *sql.Stmt {
	if p.kept == nil {
		return nil
	}
	p.kept.mu.Lock()
	defer p.kept.mu.Unlock()
	st, seen := p.kept.m[query]
	if seen || p.kept.closed || len(p.kept.m) >= maxStatements {
		return st
	}
	p.kept.m[query] = nil
	p.kept.preparing.Go(func() {
		st, err := p.DB.PrepareContext(context.Background(), query)
		if err != nil {
			return // the store is closing, or the query is bad: it runs unprepared, and fails there
		}
		p.kept.mu.Lock()
		p.kept.m[query] = st
		p.kept.mu.Unlock()
	})
	return nil
}

// Close closes the pool, and waits for the statements being prepared:
// one may be opening a connection, and so files, which must be closed
// before Close returns.
func (p *pool) Close() error {
	if p.kept == nil {
		return p.DB.Close()
	}
	p.kept.mu.Lock()
	p.kept.closed = true
	p.kept.mu.Unlock()
	err := p.DB.Close() // a statement waiting for a connection fails now
	p.kept.preparing.Wait()
	return err
}

func (p *pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := p.stmt(query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return p.DB.ExecContext(ctx, query, args...)
}

func (p *pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := p.stmt(query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.DB.QueryContext(ctx, query, args...)
}

func (p *pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := p.stmt(query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.DB.QueryRowContext(ctx, query, args...)
}

// begin starts a write transaction that runs the pool's kept statements.
func (p *pool) begin(ctx context.Context) (*sqlTx, error) {
	t, err := p.DB.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &sqlTx{Tx: t, p: p}, nil
}

// sqlTx is a transaction of a pool. A group's transaction holds its
// connection (conn) and, while it defers writes, their batch
// (deferred.go): every statement sent through it sends them first.
type sqlTx struct {
	*sql.Tx
	p     *pool
	conn  *sql.Conn   // nil unless the transaction runs a group
	batch *batchState // nil unless Tuning.ExecBatch can send deferred writes
}

func (t *sqlTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.flush(ctx)
	if st := t.p.stmt(query); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

func (t *sqlTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.flush(ctx)
	if st := t.p.stmt(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

func (t *sqlTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	t.flush(ctx)
	if st := t.p.stmt(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}
