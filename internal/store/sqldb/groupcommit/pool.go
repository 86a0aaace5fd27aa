package groupcommit

import (
	"context"
	"database/sql"
	"sync"
)

// Prepared statements, kept. modernc's SQLite parses a query string each
// time it is run unless it runs a prepared statement, and parsing was a
// quarter of the server's CPU under a load of registrations, half of what
// the one committer spent. So on such a driver (NewPool's keep) a pool
// prepares each query once per connection and keeps it: the first run of
// a query goes unprepared and asks for it to be prepared, on another
// goroutine, since inside a transaction the writer's one connection is
// busy until the transaction ends. pgx keeps its own statements, so
// PostgreSQL passes straight through.
//
// A kept statement has one cursor per connection: a query must not run
// again in a transaction while rows of its last run are still open.

// maxStatements bounds the statements kept per pool: queries built from
// filters come in many shapes, and those past the bound run unprepared.
const maxStatements = 256

// Pool is a database/sql pool that keeps its statements when asked to.
// Its transactions (Begin, and a Group's) run the statements it keeps.
type Pool struct {
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

// NewPool wraps db; keep asks it to prepare each query once per
// connection and keep it, for a driver that parses a query every time it
// runs one unprepared.
func NewPool(db *sql.DB, keep bool) *Pool {
	p := &Pool{DB: db}
	if keep {
		p.kept = &statements{m: map[string]*sql.Stmt{}}
	}
	return p
}

// stmt is query's prepared statement, or nil when there is none yet.
func (p *Pool) stmt(query string) *sql.Stmt {
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
			return // the pool is closing, or the query is bad: it runs unprepared, and fails there
		}
		p.kept.mu.Lock()
		p.kept.m[query] = st
		p.kept.mu.Unlock()
	})
	return nil
}

// Kept reports whether the pool keeps a prepared statement of query.
func (p *Pool) Kept(query string) bool {
	if p.kept == nil {
		return false
	}
	p.kept.mu.Lock()
	defer p.kept.mu.Unlock()
	return p.kept.m[query] != nil
}

// Close closes the pool, and waits for the statements being prepared:
// one may be opening a connection, and so files, which must be closed
// before Close returns.
func (p *Pool) Close() error {
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

func (p *Pool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := p.stmt(query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return p.DB.ExecContext(ctx, query, args...)
}

func (p *Pool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := p.stmt(query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.DB.QueryContext(ctx, query, args...)
}

func (p *Pool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := p.stmt(query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.DB.QueryRowContext(ctx, query, args...)
}

// Begin starts a transaction of its own (not a group's) that runs the
// pool's kept statements.
func (p *Pool) Begin(ctx context.Context) (*Tx, error) {
	t, err := p.DB.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &Tx{Tx: t, p: p}, nil
}
