package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// target is the database measured: an SQLite file, or a PostgreSQL schema
// named in the URL's search_path.
type target struct {
	DSN      string // what drover serve --database gets
	Postgres bool
	base     string // PostgreSQL: the URL without our schema
	schema   string // PostgreSQL: the schema this run made ("" when reused)
	dir      string // a temporary directory: the binary, the server's log, the baseline's file
	made     bool   // SQLite: this run made the file
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// openTarget makes the temporary directory and, unless the database is
// reused, a new SQLite file path or a new schema drover_bench_<random>.
func openTarget(ctx context.Context, o options) (*target, error) {
	dir, err := os.MkdirTemp("", "drover-bench-")
	if err != nil {
		return nil, err
	}
	t := &target{DSN: o.Database, Postgres: isPostgres(o.Database), dir: dir}
	switch {
	case t.Postgres && !o.SkipBuild:
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		t.base, t.schema = o.Database, "drover_bench_"+hex.EncodeToString(b)
		if err := t.admin(ctx, "CREATE SCHEMA "+t.schema); err != nil {
			return nil, errors.Join(err, os.RemoveAll(dir))
		}
		u, err := url.Parse(o.Database)
		if err != nil {
			return nil, err
		}
		q := u.Query()
		q.Set("search_path", t.schema)
		u.RawQuery = q.Encode()
		t.DSN = u.String()
	case t.Postgres:
	case o.Database == "":
		// Beside the temporary directory, not in it, so that --keep keeps it.
		t.DSN, t.made = dir+".db", true
	case !o.SkipBuild:
		if _, err := os.Stat(o.Database); !errors.Is(err, fs.ErrNotExist) {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("%s exists: remove it, or measure it with --skip-build", o.Database)
		}
		t.made = true
	}
	return t, nil
}

// admin runs one statement on the server outside our schema.
func (t *target) admin(ctx context.Context, stmt string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := connect(ctx, t.base)
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}

func (t *target) describe() string {
	if t.Postgres {
		return "PostgreSQL " + redact(t.DSN)
	}
	return "SQLite " + t.DSN
}

// close removes what this run made, unless it is to be kept, and says how
// to measure a kept database again.
func (t *target) close(ctx context.Context, keep bool, out io.Writer) {
	defer os.RemoveAll(t.dir)
	switch {
	case t.Postgres && t.schema != "" && !keep:
		if err := t.admin(context.WithoutCancel(ctx), "DROP SCHEMA "+t.schema+" CASCADE"); err != nil {
			fmt.Fprintln(out, "bench: drop schema:", err)
		}
	case !t.Postgres && t.made && !keep:
		removeSQLite(t.DSN)
	case keep && (t.schema != "" || t.made):
		fmt.Fprintf(out, "kept; measure it again with: go run ./bench/movements --skip-build --database '%s'\n", t.DSN)
	}
}

// connect opens one connection to the server of a URL that may also carry
// the pool's settings (pool_max_conns and the like), as the store's may.
func connect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	return pgx.ConnectConfig(ctx, cfg.ConnConfig)
}

// redact hides a password in a URL.
func redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil {
		return u.Redacted()
	}
	return dsn
}
