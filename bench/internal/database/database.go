// Package database chooses and cleans up the database a benchmark program
// under bench/ measures: a new SQLite file, or a new schema
// drover_bench_<random> of the PostgreSQL database a postgres:// URL
// names, passed to the server in the URL's search_path. A fresh schema
// lets a run share a PostgreSQL server with other work and leave nothing
// behind; a reused one (movements --skip-build) is measured as it is.
package database

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
)

// ErrExists is the error of a new database that is already there.
var ErrExists = errors.New("the benchmark needs a new database")

// Target is the database measured.
type Target struct {
	DSN      string // what drover serve --database gets
	Postgres bool
	Dir      string // a temporary directory: the binary, the server's log
	base     string // PostgreSQL: the URL given, without our schema
	schema   string // PostgreSQL: the schema this run made ("" when reused)
	made     bool   // SQLite: this run made the file
}

// IsPostgres reports whether dsn is a PostgreSQL URL.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open makes a temporary directory named after program and, unless reuse,
// a new database: a schema drover_bench_<random> when dsn is a PostgreSQL
// URL, else the SQLite file dsn, which must not exist yet ("" is a file
// beside the temporary directory, not in it, so that a kept one outlives
// the directory). With reuse, dsn names a database made by an earlier run.
func Open(ctx context.Context, program, dsn string, reuse bool) (*Target, error) {
	dir, err := os.MkdirTemp("", "drover-bench-"+program+"-")
	if err != nil {
		return nil, err
	}
	t := &Target{DSN: dsn, Postgres: IsPostgres(dsn), Dir: dir}
	switch {
	case t.Postgres && !reuse:
		err = t.newSchema(ctx, dsn)
	case t.Postgres:
	case dsn == "":
		t.DSN, t.made = dir+".db", true
	case !reuse:
		if _, serr := os.Stat(dsn); !errors.Is(serr, fs.ErrNotExist) {
			err = fmt.Errorf("%s exists: %w", dsn, ErrExists)
		}
		t.made = true
	default: // the server would make a new, empty file and measure that
		if _, serr := os.Stat(dsn); serr != nil {
			err = fmt.Errorf("a kept database: %w", serr)
		}
	}
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return t, nil
}

// newSchema makes the schema and points DSN at it.
func (t *Target) newSchema(ctx context.Context, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	t.base = dsn
	schema := "drover_bench_" + hex.EncodeToString(b)
	if err := t.Admin(ctx, "CREATE SCHEMA "+schema); err != nil {
		return err
	}
	t.schema = schema
	q := u.Query()
	q.Set("search_path", t.schema)
	u.RawQuery = q.Encode()
	t.DSN = u.String()
	return nil
}

// Dialect is "PostgreSQL" or "SQLite", for the report's heading.
func (t *Target) Dialect() string {
	if t.Postgres {
		return "PostgreSQL"
	}
	return "SQLite"
}

// Describe says which database it is, without a password.
func (t *Target) Describe() string {
	if !t.Postgres {
		return "SQLite " + t.DSN
	}
	if u, err := url.Parse(t.DSN); err == nil {
		return "PostgreSQL " + u.Redacted()
	}
	return "PostgreSQL"
}

// Close removes the temporary directory and, unless keep, the database
// this run made (the schema, or the SQLite file). It reports whether a
// database this run made was kept.
func (t *Target) Close(ctx context.Context, keep bool) (kept bool, err error) {
	defer os.RemoveAll(t.Dir)
	switch {
	case keep:
		return t.schema != "" || t.made, nil
	case t.schema != "":
		if err := t.Admin(context.WithoutCancel(ctx), "DROP SCHEMA "+t.schema+" CASCADE"); err != nil {
			return false, fmt.Errorf("drop schema: %w", err)
		}
	case t.made:
		return false, RemoveSQLite(t.DSN)
	}
	return false, nil
}
