package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/drover-registry/drover/bench/internal/database"
)

// openTarget makes the temporary directory and, unless the database is
// reused (--skip-build), a new SQLite file path or a new schema
// drover_bench_<random>.
func openTarget(ctx context.Context, o options) (*database.Target, error) {
	t, err := database.Open(ctx, "movements", o.Database, o.SkipBuild)
	if errors.Is(err, database.ErrExists) {
		return nil, fmt.Errorf("%w: remove it, or measure it with --skip-build", err)
	}
	return t, err
}

// closeTarget removes what this run made, unless it is to be kept, and
// says how to measure a kept database again.
func closeTarget(ctx context.Context, t *database.Target, keep bool, out io.Writer) {
	kept, err := t.Close(ctx, keep)
	switch {
	case err != nil:
		fmt.Fprintln(out, "bench:", err)
	case kept:
		fmt.Fprintf(out, "kept; measure it again with: go run ./bench/movements --skip-build --database '%s'\n", t.DSN)
	}
}
