package sqlite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckpointerCopiesTheWAL checks that the writer no longer
// checkpoints inside its commits and that the checkpointer copies what
// they wrote into the database file by itself.
func TestCheckpointerCopiesTheWAL(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "drover.db")
	w, r, err := openPools(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := w.ExecContext(ctx, "CREATE TABLE t (v TEXT)"); err != nil {
		t.Fatal(err)
	}
	c, err := startCheckpointer(ctx, path, w)
	if err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := w.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&pages); err != nil || pages != 0 {
		t.Errorf("writer's wal_autocheckpoint = %d, %v; want 0", pages, err)
	}
	before := size(t, path)
	// About 100 pages: a tenth of what SQLite's own checkpoint waits for.
	for range 100 {
		if _, err := w.ExecContext(ctx, "INSERT INTO t VALUES (?)", strings.Repeat("x", 4000)); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * checkpointEvery)
	for size(t, path) < before+100*4000 {
		if time.Now().After(deadline) {
			t.Fatalf("database file %d bytes after the writes, %d before: nothing checkpointed in %s",
				size(t, path), before, 20*checkpointEvery)
		}
		time.Sleep(checkpointEvery / 4)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
