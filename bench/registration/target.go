package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/drover-registry/drover/bench/internal/database"
)

// target is the database measured (a new SQLite file or PostgreSQL
// schema), with this program's own connection to it, db, for the tags
// and the results.
type target struct {
	*database.Target
	db *sql.DB
}

// openTarget makes the new database and opens db on it.
func openTarget(ctx context.Context, dsn string) (*target, error) {
	t, err := database.Open(ctx, "reg", dsn, false)
	if err != nil {
		return nil, err
	}
	db, err := t.SQL()
	if err != nil {
		_, cerr := t.Close(ctx, false)
		return nil, errors.Join(err, cerr)
	}
	return &target{Target: t, db: db}, nil
}

// close removes what this run made: the schema, or the SQLite file.
func (t *target) close(ctx context.Context, out io.Writer) {
	_ = t.db.Close()
	if _, err := t.Close(ctx, false); err != nil {
		fmt.Fprintln(out, "bench:", err)
	}
}
