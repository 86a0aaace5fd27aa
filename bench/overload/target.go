package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// target is the database measured: a new SQLite file, or a new schema of a
// PostgreSQL database named in the URL's search_path.
type target struct {
	DSN      string // what drover serve --database gets
	Postgres bool
	base     string // PostgreSQL: the URL given, without our schema
	schema   string // PostgreSQL: the schema this run made
	dir      string // a temporary directory: the binary and the server's log
}

// openTarget makes the temporary directory and a new SQLite file path or
// a new schema drover_bench_<random>.
func openTarget(ctx context.Context, dsn string) (*target, error) {
	dir, err := os.MkdirTemp("", "drover-bench-overload-")
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
		u, perr := url.Parse(dsn)
		if perr != nil {
			err = perr
			break
		}
		if err = t.admin(ctx, "CREATE SCHEMA "+t.schema); err != nil {
			break
		}
		q := u.Query()
		q.Set("search_path", t.schema)
		u.RawQuery = q.Encode()
		t.DSN = u.String()
	case dsn == "":
		t.DSN = dir + "/drover.db"
	default:
		if _, serr := os.Stat(dsn); serr == nil {
			err = fmt.Errorf("%s exists: the benchmark needs a new database", dsn)
		}
	}
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return t, nil
}

// admin runs one statement on the server outside our schema.
func (t *target) admin(ctx context.Context, stmt string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cfg, err := pgxpool.ParseConfig(t.base) // takes the pool's settings (pool_max_conns) out of the URL
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
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
	if t.Postgres {
		if err := t.admin(context.WithoutCancel(ctx), "DROP SCHEMA "+t.schema+" CASCADE"); err != nil {
			fmt.Fprintln(out, "bench: drop schema:", err)
		}
	} else if t.DSN != t.dir+"/drover.db" {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			_ = os.Remove(t.DSN + suffix)
		}
	}
	_ = os.RemoveAll(t.dir)
}
