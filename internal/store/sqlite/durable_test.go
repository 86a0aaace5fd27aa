package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqlite"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestWritesSynced: the writer commits without waiting for the disk, so
// the store syncs the WAL before a write returns, for group commits and
// for writes outside them alike (groupcommit's sync.go and durable.go).
func TestWritesSynced(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	s := open(t, path)
	before := s.GroupStats().Syncs
	err := s.InSharedTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
		_, err := tx.EnqueueJob(ctx, store.NewJob{Kind: "synced", Payload: []byte(`{}`)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	shared := s.GroupStats().Syncs
	if shared <= before {
		t.Errorf("a shared transaction returned with %d syncs made, as many as before it", shared)
	}
	if err := s.AddSigningKey(t.Context(), store.SigningKey{ID: "k1", Algorithm: "ES256", PrivateJWK: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got := s.GroupStats().Syncs; got <= shared {
		t.Errorf("a write outside the group returned with %d syncs made, as many as before it", got)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Errorf("the WAL the syncs are for: %v, %v; want a file holding the commits", fi, err)
	}
}

// TestWALSyncRefusesOtherJournals: synchronous=NORMAL is durable only with
// the WAL, so a writer in another journal mode has no sync and no store.
func TestWALSyncRefusesOtherJournals(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rollback.db")
	db, err := sql.Open("sqlite", path+"?_journal_mode=DELETE")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := sqlite.WALSync(t.Context(), db); err == nil || !strings.Contains(err.Error(), `journal mode "delete"`) {
		t.Errorf("WALSync on a rollback journal: %v; want it refused", err)
	}
	wal := raw(t, storetest.SQLitePath(t))
	if _, err := wal.Exec(`PRAGMA journal_mode=WAL`); err != nil {
		t.Fatal(err)
	}
	sync, err := sqlite.WALSync(t.Context(), wal)
	if err != nil {
		t.Fatal(err)
	}
	if err := sync(); err != nil {
		t.Errorf("syncing a WAL: %v", err)
	}
}
