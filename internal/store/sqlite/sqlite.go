// Package sqlite keeps Drover's records in one SQLite file: the embedded
// default, for a single replica. It wraps modernc.org/sqlite (pure Go) and
// hands the queries to package sqldb.
//
// Every write goes through one connection, opened with BEGIN IMMEDIATE, so
// writers queue in Go rather than failing with SQLITE_BUSY; reads use a
// separate pool of read-only connections, which WAL lets run alongside the
// writer. synchronous=FULL means a committed write is on disk.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	driver "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb"
)

// Store is a store.Store on one SQLite file.
type Store struct {
	*sqldb.Store
}

var _ store.Store = (*Store)(nil)

// readers is the size of the read-only pool.
const readers = 4

// readerMmap is how much of the database file each reader maps: SQLite's
// own ceiling (SQLITE_MAX_MMAP_SIZE, 2 GiB less 64 KiB), which a larger
// value is cut to. Pages past it are read as before.
const readerMmap = 0x7fff0000

// Open opens (creating it if need be) the database file at path and
// applies any pending migration.
func Open(ctx context.Context, path string) (*Store, error) {
	w, r, err := openPools(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, w); err != nil {
		_ = r.Close()
		_ = w.Close()
		return nil, err
	}
	return newStore(w, r)
}

// OpenCurrent opens the database file at path as it is, changing nothing:
// no file is created, and a file that is not at this build's schema is
// refused (sqldb.SchemaCurrent) rather than migrated.
func OpenCurrent(ctx context.Context, path string) (*Store, error) {
	name, _, _ := strings.Cut(strings.TrimPrefix(path, "file:"), "?")
	if _, err := os.Stat(name); err != nil {
		return nil, fmt.Errorf("sqlite: no database at %s: %w", name, err)
	}
	// Checked on a connection of its own that cannot write: the writer
	// would turn WAL on in a file that may not be Drover's.
	probe, err := sql.Open("sqlite", path+"?"+url.Values{"_query_only": {"1"}, "_busy_timeout": {busyTimeoutMS}}.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", name, err)
	}
	defer probe.Close()
	var tables int
	err = probe.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'goose_db_version'").Scan(&tables)
	if err != nil {
		return nil, openError(path, err)
	}
	p, err := newProvider(probe)
	if err == nil {
		err = sqldb.SchemaCurrent(ctx, p, tables > 0)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: %s: %w", name, err)
	}
	w, r, err := openPools(ctx, path)
	if err != nil {
		return nil, err
	}
	return newStore(w, r)
}

// newStore is the store over the writer w and the readers r of a migrated
// file; it closes both if it cannot be made.
func newStore(w, r *sql.DB) (*Store, error) {
	// Ready asks the readers, so that a probe does not queue for the writer.
	ready, err := newProvider(r)
	if err != nil {
		_ = r.Close()
		_ = w.Close()
		return nil, err
	}
	return &Store{sqldb.New(sqldb.Config{
		Dialect: dialect,
		Tuning:  tuning,
		Writer:  w,
		Reader:  r,
		Pending: ready.HasPending,
	})}, nil
}

// Migrate applies any pending migration to the database file at path,
// creating it if need be, and closes it again.
func Migrate(ctx context.Context, path string) error {
	w, r, err := openPools(ctx, path)
	if err != nil {
		return err
	}
	defer r.Close()
	defer w.Close()
	return migrate(ctx, w)
}

// busyTimeoutMS is how long a connection waits for a lock another holds.
const busyTimeoutMS = "10000"

// syncData makes SQLite commit with fdatasync(2) rather than fsync(2),
// process-wide, as SQLite built by its own configure script does on
// Linux: the data and the size are on disk all the same, and the file's
// timestamps are not written with every commit. Where the driver cannot
// (macOS, Windows) it keeps its own sync.
func syncData() { _, _ = driver.Fdatasync(true) }

// openPools opens the writer (one connection) and the readers, and checks
// that the file can be opened.
func openPools(ctx context.Context, path string) (w, r *sql.DB, err error) {
	syncData()
	common := url.Values{"_busy_timeout": {busyTimeoutMS}, "_foreign_keys": {"1"}}
	wq, rq := url.Values{}, url.Values{"_query_only": {"1"}}
	for k, v := range common {
		wq[k], rq[k] = v, v
	}
	wq.Set("_journal_mode", "WAL")
	wq.Set("_synchronous", "FULL")
	wq.Set("_txlock", "immediate")
	// Group commit may run each caller's writes in a savepoint (groupcommit's
	// run.go), and so does SQLite each statement that may fail half
	// way; it copies every page a savepoint changes into
	// a sub-journal first: a temporary file by default, a pwrite a page,
	// which was a fifth of the server's CPU under the movements benchmark.
	// In memory it is a copy. It holds only the current transaction's
	// pages, and durability rests on the WAL, not on it.
	wq.Add("_pragma", "temp_store(MEMORY)")
	// A reader maps the database file (up to readerMmap) rather than
	// reading it a page at a time. Every commit makes each reader discard
	// its whole page cache before its next read, so under writes a reader
	// otherwise freed its pages and read them back, a malloc and a pread
	// each, and a month's listing after a commit cost several times its
	// CPU. A mapped page is the kernel's page cache, shared by the readers
	// and reclaimable, and costs nothing to take up again. A page that
	// cannot be read (a disk error, the file written over by anything but
	// SQLite) stops the process instead of failing one read: see
	// docs/design/runtime.md.
	rq.Add("_pragma", "mmap_size("+strconv.Itoa(readerMmap)+")")
	// It also keeps 8 MiB of pages the mapping does not serve (those of
	// the WAL; SQLite's default is 2 MiB).
	rq.Add("_pragma", "cache_size(-8192)")
	if w, err = sql.Open("sqlite", path+"?"+wq.Encode()); err != nil {
		return nil, nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	// The writer goes first: it turns WAL on before any reader opens.
	if err := w.PingContext(ctx); err != nil {
		_ = w.Close()
		return nil, nil, openError(path, err)
	}
	if r, err = sql.Open("sqlite", path+"?"+rq.Encode()); err != nil {
		_ = w.Close()
		return nil, nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	if err := r.PingContext(ctx); err != nil {
		_ = r.Close()
		_ = w.Close()
		return nil, nil, openError(path, err)
	}
	return w, r, nil
}
