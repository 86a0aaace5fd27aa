package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// target is the database measured: a new SQLite file, or a new schema of a
// PostgreSQL database named in the URL's search_path. db is this
// program's own connection to it, for the tags and the results.
type target struct {
	DSN      string // what drover serve --database gets
	Postgres bool
	base     string // PostgreSQL: the URL given, without our schema
	schema   string // PostgreSQL: the schema this run made
	dir      string // a temporary directory: the binary, the server's log, the baseline's file
	db       *sql.DB
}

// openTarget makes the temporary directory and a new SQLite file path or
// a new schema drover_bench_<random>.
func openTarget(ctx context.Context, dsn string) (*target, error) {
	dir, err := os.MkdirTemp("", "drover-bench-reg-")
	if err != nil {
		return nil, err
	}
	t := &target{DSN: dsn, dir: dir}
	t.Postgres = strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
	switch {
	case t.Postgres:
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		t.base, t.schema = dsn, "drover_bench_"+hex.EncodeToString(b)
		if err = t.admin(ctx, "CREATE SCHEMA "+t.schema); err != nil {
			break
		}
		u, perr := url.Parse(dsn)
		if perr != nil {
			return nil, errors.Join(perr, t.admin(ctx, "DROP SCHEMA "+t.schema), os.RemoveAll(dir))
		}
		q := u.Query()
		q.Set("search_path", t.schema)
		u.RawQuery = q.Encode()
		t.DSN = u.String()
		t.db, err = sql.Open("pgx", withoutPool(t.DSN))
	default:
		if dsn == "" {
			t.DSN = dir + "/drover.db"
		} else if _, serr := os.Stat(dsn); serr == nil {
			err = fmt.Errorf("%s exists: the benchmark needs a new database", dsn)
			break
		}
		t.db, err = sql.Open("sqlite", t.DSN+"?_busy_timeout=10000&_txlock=immediate")
	}
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return t, nil
}

// admin runs one statement on the server outside our schema.
func (t *target) admin(ctx context.Context, stmt string) error {
	db, err := sql.Open("pgx", withoutPool(t.base))
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}

// withoutPool drops the pool's settings (pool_max_conns and the like),
// which the server would take for run-time parameters, from a URL.
func withoutPool(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn
	}
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func (t *target) dialect() string {
	if t.Postgres {
		return "PostgreSQL"
	}
	return "SQLite"
}

func (t *target) describe() string {
	if u, err := url.Parse(t.DSN); err == nil && t.Postgres {
		return "PostgreSQL " + u.Redacted()
	}
	return "SQLite " + t.DSN
}

// close removes what this run made: the schema, or the SQLite file.
func (t *target) close(ctx context.Context, out io.Writer) {
	_ = t.db.Close()
	if t.Postgres {
		if err := t.admin(ctx, "DROP SCHEMA "+t.schema+" CASCADE"); err != nil {
			fmt.Fprintln(out, "bench: drop schema:", err)
		}
	} else if t.DSN != t.dir+"/drover.db" {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			_ = os.Remove(t.DSN + suffix)
		}
	}
	_ = os.RemoveAll(t.dir)
}
