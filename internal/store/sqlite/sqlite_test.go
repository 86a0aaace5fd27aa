package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	driver "modernc.org/sqlite"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqlite"
	"github.com/drover-registry/drover/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Exercise(t, func(t *testing.T) store.Store { return storetest.OpenSQLite(t) })
}

// open opens the store at path, closed when the test ends.
func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// raw opens the file without the store, to look behind it.
func raw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func TestReopen(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	storetest.Reopen(t, func(t *testing.T) store.Store { return open(t, path) })
}

// TestMigrate runs the migrations alone, as `drover migrate` does, and
// checks the file is WAL and ready for Open.
func TestMigrate(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := storetest.SQLitePath(t)
	if err := sqlite.Migrate(ctx, path); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	if err := sqlite.Migrate(ctx, path); err != nil {
		t.Fatalf("Migrate again: %v", err)
	}
	var mode string
	if err := raw(t, path).QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	if err := open(t, path).Ready(ctx); err != nil {
		t.Errorf("Ready: %v", err)
	}
}

// TestReadyPending checks that Ready fails while a migration is missing.
func TestReadyPending(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := storetest.SQLitePath(t)
	s := open(t, path)
	if _, err := raw(t, path).ExecContext(ctx, "DELETE FROM goose_db_version WHERE version_id = 1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Ready(ctx); livestock.ErrorKind(err) != livestock.KindUnavailable {
		t.Errorf("Ready with a migration pending = %v; want KindUnavailable", err)
	}
}

// TestSchemaNewer: a database a later build migrated is refused, not
// served with statements for a schema it no longer has.
func TestSchemaNewer(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := storetest.SQLitePath(t)
	if err := sqlite.Migrate(ctx, path); err != nil {
		t.Fatal(err)
	}
	if _, err := raw(t, path).ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (9999, 1)"); err != nil {
		t.Fatal(err)
	}
	if err := sqlite.Migrate(ctx, path); err == nil || !strings.Contains(err.Error(), "version 9999, newer than this build knows") {
		t.Errorf("Migrate of a newer schema = %v; want a refusal naming its version", err)
	}
}

func TestOpenUnavailable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "drover.db")
	_, err := sqlite.Open(context.Background(), path)
	if livestock.ErrorKind(err) != livestock.KindUnavailable {
		t.Errorf("Open(%q) = %v; want KindUnavailable", path, err)
	}
}

// TestStoredForms checks how SQLite holds times and dates: instants as
// fixed-width UTC text, dates as the date in the zone they were given in.
func TestStoredForms(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := storetest.SQLitePath(t)
	s := open(t, path)
	bst := time.FixedZone("BST", 3600)
	cph := livestock.MustCPH("01/100/0001")
	_, err := s.Seed(ctx, store.Seed{
		Holdings: []livestock.Holding{{CPH: cph, Type: livestock.HoldingProducer}},
		Flocks:   []store.Flock{{Mark: livestock.MustFlockMark("100001"), Species: livestock.SpeciesSheep, CPH: cph}},
		Tags: []store.IssuedTag{{Identifier: livestock.MustTag(livestock.SpeciesSheep, "UK0100001 00001"), Mark: livestock.MustFlockMark("100001"), Species: livestock.SpeciesSheep,
			IssuedOn: time.Date(2024, 4, 1, 0, 0, 0, 0, bst)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
		return tx.Audit(ctx, store.AuditEntry{At: time.Date(2024, 4, 1, 0, 30, 0, 5000, bst)})
	})
	if err != nil {
		t.Fatal(err)
	}
	db := raw(t, path)
	var issued, at string
	if err := db.QueryRowContext(ctx, "SELECT issued_on FROM issued_tags").Scan(&issued); err != nil {
		t.Fatal(err)
	}
	if issued != "2024-04-01" {
		t.Errorf("issued_on = %q, want 2024-04-01", issued)
	}
	if err := db.QueryRowContext(ctx, "SELECT at FROM audit_log").Scan(&at); err != nil {
		t.Fatal(err)
	}
	if at != "2024-03-31T23:30:00.000005Z" {
		t.Errorf("audit at = %q, want 2024-03-31T23:30:00.000005Z", at)
	}
}

// TestLiveStatus checks migration 00009 (the live status values).
func TestLiveStatus(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	storetest.LiveStatus(t, open(t, path), behind(path))
}

// TestStoredSpecies checks that species keep their stored spelling.
func TestStoredSpecies(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	storetest.StoredSpecies(t, open(t, path), behind(path))
}

// TestStoredIdentifiers checks that tags, RFIDs and batch numbers are
// stored printed and read back parsed.
func TestStoredIdentifiers(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	storetest.StoredIdentifiers(t, open(t, path), behind(path))
}

// TestRegistrySpecies checks that flocks, tags and animals keep their
// species' stored spelling.
func TestRegistrySpecies(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	storetest.RegistrySpecies(t, open(t, path), behind(path))
}

// TestReplyKeys checks migration 00025 (replies keyed by the canonical
// UUID).
func TestReplyKeys(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	storetest.ReplyKeys(t, open(t, path), behind(path))
}

// TestModeMigration checks migration 00014 (the database's mode).
func TestModeMigration(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	storetest.ModeMigration(t, open(t, path), behind(path))
}

// behind lets a migration test move the database at path to a version and
// read it with plain SQL.
func behind(path string) storetest.Behind {
	return storetest.Behind{
		To: func(t *testing.T, v int64) {
			if err := sqlite.MigrateTo(t.Context(), path, v); err != nil {
				t.Fatalf("MigrateTo(%d): %v", v, err)
			}
		},
		Text: func(t *testing.T, q string, arg any) (s string) {
			if err := raw(t, path).QueryRowContext(t.Context(), q, arg).Scan(&s); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			return s
		},
		Exec: func(t *testing.T, stmt string, args ...any) {
			if _, err := raw(t, path).ExecContext(t.Context(), stmt, args...); err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		},
	}
}

// TestRepliesByRow checks migration 00023: replies kept in the table keyed
// by correlation id move to the rowid table with both its indexes when the
// store opens, the migration's copy does not stay in the WAL, the key
// still refuses a second reply for one correlation id, and going back
// restores the old table.
func TestRepliesByRow(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := storetest.SQLitePath(t)
	kept := store.Reply{UserName: "keeper1", CorrelationID: "6f1c0c8e-2b7d-4c39-9d4e-0d6f3b1a2c44", RequestHash: "ab12",
		Status: 201, Body: []byte(strings.Repeat(`{"content":"x"}`, 200)), CreatedAt: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC),
		RequestID: "42"}
	save := func(s store.Store, r store.Reply) error {
		return s.InTx(ctx, func(c context.Context, tx store.Tx) error { return tx.SaveReply(c, r) })
	}
	first, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	err = save(first, kept)
	if cerr := first.Close(); err != nil || cerr != nil {
		t.Fatalf("SaveReply: %v; Close: %v", err, cerr)
	}
	schema := func() string {
		rows, err := raw(t, path).QueryContext(ctx, "SELECT sql FROM sqlite_master WHERE tbl_name = 'replies' AND sql IS NOT NULL ORDER BY name")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var all []string
		for rows.Next() {
			var ddl string
			if err := rows.Scan(&ddl); err != nil {
				t.Fatal(err)
			}
			all = append(all, ddl)
		}
		return strings.Join(all, "\n")
	}
	if err := sqlite.MigrateTo(ctx, path, 22); err != nil {
		t.Fatalf("MigrateTo(22): %v", err)
	}
	if ddl := schema(); !strings.Contains(ddl, "WITHOUT ROWID") || !strings.Contains(ddl, "replies_created") {
		t.Fatalf("replies at 00022:\n%s", ddl)
	}
	s := open(t, path)
	for _, want := range []string{"CREATE UNIQUE INDEX replies_key ON replies (user_name, correlation_id)",
		"CREATE INDEX replies_created ON replies (created_at)"} {
		if ddl := schema(); strings.Contains(ddl, "WITHOUT ROWID") || !strings.Contains(ddl, want) {
			t.Errorf("replies after 00023 lacks %q, or is still WITHOUT ROWID:\n%s", want, ddl)
		}
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("the WAL holds %d bytes after Open migrated, want none", fi.Size())
	}
	got, err := s.Reply(ctx, kept.UserName, kept.CorrelationID)
	if err != nil || got.Status != kept.Status || !bytes.Equal(got.Body, kept.Body) || got.RequestID != kept.RequestID ||
		!got.CreatedAt.Equal(kept.CreatedAt) || got.RequestHash != kept.RequestHash {
		t.Errorf("Reply after 00023 = status %d, %d bytes, request %q, at %v, hash %q; %v; want the reply kept at 00022",
			got.Status, len(got.Body), got.RequestID, got.CreatedAt, got.RequestHash, err)
	}
	again := kept
	again.Status = 400
	if err := save(s, again); livestock.ErrorKind(err) != livestock.KindConflict {
		t.Errorf("SaveReply of a kept correlation id after the migration = %v, want a conflict", err)
	}
	if err := sqlite.MigrateTo(ctx, path, 22); err != nil {
		t.Fatalf("MigrateTo(22) again: %v", err)
	}
	if ddl := schema(); !strings.Contains(ddl, "WITHOUT ROWID") || !strings.Contains(ddl, "replies_created") {
		t.Errorf("replies after going back to 00022:\n%s", ddl)
	}
	if got, err := s.Reply(ctx, kept.UserName, kept.CorrelationID); err != nil || !bytes.Equal(got.Body, kept.Body) {
		t.Errorf("Reply after going back to 00022: %d bytes, %v", len(got.Body), err)
	}
}

// TestOpenTruncatesWAL: a file left with a large WAL (a crash after a
// migration committed, before its checkpoint) is opened with that WAL
// checkpointed and emptied, not carried through the server's whole run;
// beside another process reading the file, Open does not wait for it, and
// the writer's busy timeout is back for the writes after.
func TestOpenTruncatesWAL(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := storetest.SQLitePath(t)
	if err := sqlite.Migrate(ctx, path); err != nil {
		t.Fatal(err)
	}
	// A crash is a copy of the file and its WAL taken while a writer that
	// never checkpoints holds them.
	db := raw(t, path)
	db.SetMaxOpenConns(1)
	for _, stmt := range []string{"PRAGMA wal_autocheckpoint = 0", "CREATE TABLE filler (b BLOB)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT randomblob(1000) FROM n"} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	crashed := filepath.Join(t.TempDir(), "crashed.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(crashed+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(crashed + "-wal"); err != nil || fi.Size() < 1<<20 {
		t.Fatalf("the crashed copy's WAL: %v, %v; want over 1 MiB", fi, err)
	}
	// Another process reading the file: Open neither waits for it nor
	// fails, and leaves the WAL, which the reader's snapshot needs.
	reader := raw(t, path)
	reader.SetMaxOpenConns(1)
	tx, err := reader.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM filler").Scan(&n); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	beside := open(t, path)
	// Not a speed check: the checkpoint must not sit out the 10 s busy timeout.
	if waited := time.Since(began); waited > 5*time.Second {
		t.Errorf("Open beside a reader took %v", waited)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Errorf("the WAL under a reader's snapshot after Open: %v, %v; want it kept", fi, err)
	}
	_ = tx.Rollback()
	// The writer still waits for a lock another connection holds briefly.
	locker := raw(t, path)
	locker.SetMaxOpenConns(1)
	if _, err := locker.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		_, _ = locker.ExecContext(context.Background(), "ROLLBACK")
	}()
	if err := beside.InTx(ctx, func(c context.Context, tx store.Tx) error {
		return tx.SaveReply(c, store.Reply{UserName: "keeper1", CorrelationID: "after-open", RequestHash: "h", Status: 201})
	}); err != nil {
		t.Errorf("a write while another connection held the lock for 300 ms: %v", err)
	}

	open(t, crashed)
	if fi, err := os.Stat(crashed + "-wal"); err == nil && fi.Size() > 0 {
		t.Errorf("the WAL holds %d bytes after Open, want none", fi.Size())
	}
	if err := raw(t, crashed).QueryRowContext(ctx, "SELECT count(*) FROM filler").Scan(&n); err != nil || n != 2000 {
		t.Errorf("rows of the crashed copy after Open = %d, %v; want 2000", n, err)
	}
}

// TestReadersMapTheFile: each reader maps the database file, so that the
// page cache every commit makes it discard costs nothing to take up again;
// the writer, whose cache no other connection's commit discards, reads as
// before.
func TestReadersMapTheFile(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := storetest.SQLitePath(t)
	w, r, err := sqlite.OpenPools(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	for name, c := range map[string]struct {
		db   *sql.DB
		want int64
	}{"reader": {r, sqlite.ReaderMmap}, "writer": {w, 0}} {
		var got int64
		if err := c.db.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&got); err != nil || got != c.want {
			t.Errorf("%s: mmap_size = %d, %v; want %d", name, got, err, c.want)
		}
	}
}

// TestOpenCurrent: opening a file as it is changes nothing. A missing file
// is not created, a file never migrated gets no version table, and a file
// with a migration pending is refused, not migrated; a current one opens.
func TestOpenCurrent(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	missing := storetest.SQLitePath(t)
	if _, err := sqlite.OpenCurrent(ctx, missing); err == nil {
		t.Error("OpenCurrent of a missing file succeeded")
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenCurrent made %s (%v)", missing, err)
	}

	bare := storetest.SQLitePath(t)
	if _, err := raw(t, bare).ExecContext(ctx, "CREATE TABLE other (x)"); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.OpenCurrent(ctx, bare); err == nil || !strings.Contains(err.Error(), "no Drover schema") {
		t.Errorf("OpenCurrent of a file never migrated = %v; want a refusal", err)
	}
	var n int
	if err := raw(t, bare).QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'goose_db_version'").Scan(&n); err != nil || n != 0 {
		t.Errorf("version tables after OpenCurrent = %d, %v; want none made", n, err)
	}
	var mode string
	if err := raw(t, bare).QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "delete" {
		t.Errorf("journal_mode after OpenCurrent = %q, %v; want the file's own (delete)", mode, err)
	}

	path := storetest.SQLitePath(t)
	if err := sqlite.Migrate(ctx, path); err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.OpenCurrent(ctx, path)
	if err != nil {
		t.Fatalf("OpenCurrent of a migrated file: %v", err)
	}
	if err := s.Ready(ctx); err != nil {
		t.Errorf("Ready: %v", err)
	}
	s.Close()
	var last int
	if err := raw(t, path).QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version").Scan(&last); err != nil {
		t.Fatal(err)
	}
	if _, err := raw(t, path).ExecContext(ctx, "DELETE FROM goose_db_version WHERE version_id = ?", last); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.OpenCurrent(ctx, path); err == nil || !strings.Contains(err.Error(), "migrations still to apply") {
		t.Errorf("OpenCurrent with a migration pending = %v; want a refusal", err)
	}
	if err := raw(t, path).QueryRowContext(ctx, "SELECT count(*) FROM goose_db_version WHERE version_id = ?", last).Scan(&n); err != nil || n != 0 {
		t.Errorf("migration %d after OpenCurrent: %d rows, %v; want it still pending", last, n, err)
	}
}

// TestSyncsData: a store's commits sync with fdatasync where the driver
// can (syncData), as SQLite's own Linux builds do.
func TestSyncsData(t *testing.T) {
	open(t, storetest.SQLitePath(t))
	if got := driver.FdatasyncEnabled(); runtime.GOOS == "linux" && !got {
		t.Error("after Open, SQLite syncs with fsync; want fdatasync")
	}
}
