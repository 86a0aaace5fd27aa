package database

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestSQLite checks the SQLite choices: a new temporary file removed at
// the end, a named file that must be new, and a kept one left alone.
func TestSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tmp, err := Open(ctx, "test", "", false)
	if err != nil {
		t.Fatal(err)
	}
	if tmp.Dialect() != "SQLite" || !strings.HasSuffix(tmp.DSN, ".db") || tmp.Describe() != "SQLite "+tmp.DSN {
		t.Errorf("temporary target = %+v, %s", tmp, tmp.Describe())
	}
	if err := os.WriteFile(tmp.DSN, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if kept, err := tmp.Close(ctx, false); kept || err != nil {
		t.Errorf("Close = %v, %v", kept, err)
	}
	for _, p := range []string{tmp.DSN, tmp.Dir} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind (%v)", p, err)
		}
	}

	named := filepath.Join(t.TempDir(), "x.db")
	if err := os.WriteFile(named, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, "test", named, false); !errors.Is(err, ErrExists) {
		t.Errorf("Open of an existing file = %v; want ErrExists", err)
	}
	if _, err := Open(ctx, "test", named+".missing", true); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open to reuse a missing file = %v; want ErrNotExist", err)
	}
	reused, err := Open(ctx, "test", named, true)
	if err != nil {
		t.Fatal(err)
	}
	if kept, err := reused.Close(ctx, false); kept || err != nil {
		t.Errorf("Close of a reused file = %v, %v", kept, err)
	}
	if _, err := os.Stat(named); err != nil {
		t.Errorf("a reused file was removed: %v", err)
	}
}

// TestPostgres makes a schema of its own and drops it; skipped unless
// DROVER_TEST_POSTGRES is set.
func TestPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	base := storetest.PostgresURL(t)
	tg, err := Open(ctx, "test", base, false)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Dialect() != "PostgreSQL" || !strings.Contains(tg.DSN, "search_path="+tg.schema) {
		t.Errorf("target = %+v", tg)
	}
	db, err := tg.SQL()
	if err != nil {
		t.Fatal(err)
	}
	var path string
	if err := db.QueryRowContext(ctx, "SHOW search_path").Scan(&path); err != nil || path != tg.schema {
		t.Errorf("search_path = %q, %v; want %q", path, err, tg.schema)
	}
	db.Close()
	if kept, err := tg.Close(ctx, false); kept || err != nil {
		t.Errorf("Close = %v, %v", kept, err)
	}
	conn, err := Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", tg.schema).Scan(&n); err != nil || n != 0 {
		t.Errorf("schema %s: %d left, %v", tg.schema, n, err)
	}
}
