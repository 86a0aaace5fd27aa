package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // registers the "sqlite" driver, the one Drover's store uses
)

// Admin runs one statement on the PostgreSQL server outside our schema.
func (t *Target) Admin(ctx context.Context, stmt string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := Connect(ctx, t.base)
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}

// Connect opens one connection to the server of a URL that may also carry
// the pool's settings (pool_max_conns and the like), as the store's may:
// the server would take them for run-time parameters.
func Connect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	return pgx.ConnectConfig(ctx, cfg.ConnConfig)
}

// SQL opens a database/sql handle of the program's own on the database
// (once the server has made its tables), to read or seed it directly.
func (t *Target) SQL() (*sql.DB, error) {
	if !t.Postgres {
		return sql.Open("sqlite", t.DSN+"?_busy_timeout=10000&_txlock=immediate")
	}
	cfg, err := pgxpool.ParseConfig(t.DSN)
	if err != nil {
		return nil, err
	}
	return stdlib.OpenDB(*cfg.ConnConfig), nil
}

// RemoveSQLite removes an SQLite file and its WAL and shared memory.
func RemoveSQLite(path string) error {
	var errs []error
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// BulkSQLite opens a connection of its own to the SQLite file at path, for
// a benchmark to build its registry on, and runs stmts (the build's
// PRAGMAs) on it. done closes the connection and its pool.
func BulkSQLite(ctx context.Context, path string, stmts ...string) (conn *sql.Conn, done func(), err error) {
	db, err := sql.Open("sqlite", path+"?_journal_mode=WAL&_busy_timeout=10000")
	if err != nil {
		return nil, nil, err
	}
	if conn, err = db.Conn(ctx); err != nil {
		db.Close()
		return nil, nil, err
	}
	done = func() { conn.Close(); db.Close() }
	if err := ExecAll(ctx, conn, stmts...); err != nil {
		done()
		return nil, nil, err
	}
	return conn, done, nil
}

// ExecAll runs stmts on conn in order, and names the one that fails.
func ExecAll(ctx context.Context, conn *sql.Conn, stmts ...string) error {
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}
