// Package sqldb is the one implementation of store.Store on database/sql,
// shared by the sqlite and postgres packages. What differs between the two
// databases' SQL (a few query strings, how an instant is bound, what a
// driver error means) is a Dialect, and how each is driven fast is its
// Tuning; those packages supply both. Everything else, including the
// transaction boundaries, is written once here. Shared transactions run
// through package groupcommit, which knows nothing of Drover's records.
package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// Dialect is what one database's SQL does differently: its query
// fragments, how it binds an instant, and what its errors mean. How the
// store drives that database fast (statements kept, round trips saved,
// deadlines) is its Tuning (tuning.go).
type Dialect struct {
	// Name is what Store.Dialect reports: "sqlite" or "postgres".
	Name string
	// BindTime turns an instant into the value bound to a parameter. It is
	// given a UTC time truncated to the microsecond.
	BindTime func(time.Time) any
	// Classify reports what a driver error means to a caller:
	// KindConflict, KindUnavailable, or KindInternal when nothing better.
	Classify func(error) livestock.Kind
	// ClaimLock ends the query that claims a job, so that replicas skip
	// the jobs others hold ("" when the single writer serialises claims).
	ClaimLock string
	// RowLock ends a query that reads rows for update, so that no other
	// transaction changes them until this one ends ("" when the single
	// writer already gives that).
	RowLock string
	// SeedLock runs first in Seed's transaction so that seeders queue
	// behind each other ("" when the write transaction already does).
	SeedLock string
	// AnimalsLock runs before a transaction reads animals to check a move
	// (Tx.Animals) or moves them (Tx.MoveAnimals), so that such
	// transactions queue behind each other until they end ("" when the
	// single writer already does). One lock for all, not a lock on each
	// animal's row: a group commit runs several jobs, each locking its
	// animals, and two groups locking the same sheep in turn deadlocked
	// (bench/movements on PostgreSQL: 36 deadlocks, POST p99 1.07 s, the
	// deadlock timeout).
	AnimalsLock string
	// NextBatchID takes a new batchMovementId (store.MovementBatch.ID)
	// and returns it as its one row: ids never repeat, even once the line
	// that had one is gone (migration 00012).
	NextBatchID string
	// MaxParams bounds the parameters of one multi-row insert.
	MaxParams int
	// OverrideID goes between the columns and VALUES of an insert that
	// sets an id the database otherwise assigns (the deferred inserts of
	// Tuning.NextIDs).
	OverrideID string
}

// querier is what *sql.DB and *sql.Tx share: the readers of movements run
// on either, so that Store and Tx answer alike.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Config is what New needs.
type Config struct {
	Dialect Dialect
	Tuning  Tuning
	// Writer runs every write transaction; Reader runs lone reads. They
	// are the same pool on PostgreSQL. On SQLite the writer has one
	// connection, so BEGIN IMMEDIATE never waits on another writer.
	Writer, Reader *sql.DB
	// Pending reports whether migrations remain to be applied, for Ready.
	Pending func(ctx context.Context) (bool, error)
	// Warnings reads the database's settings that break a promise of
	// Drover's, for Warnings; nil when the dialect sets its own.
	Warnings func(ctx context.Context) ([]string, error)
	// Close releases whatever else the store holds, after both pools.
	Close func() error
}

// Store implements store.Store.
type Store struct {
	d       *Dialect
	tune    Tuning
	w, r    *groupcommit.Pool // the same pool when Config.Writer is Config.Reader
	pending func(ctx context.Context) (bool, error)
	warn    func(ctx context.Context) ([]string, error)
	close   func() error
	group   *groupcommit.Group[store.Tx] // the committers of InSharedTx (group.go)
	queue   queueStats                   // refreshes of the job queue's statistics (queuestats.go)
	floor   claimFloor                   // where a claim starts (claimfloor.go)
	held    heldJobs                     // failed attempts not yet recorded (jobheld.go)
}

var _ store.Store = (*Store)(nil)

// New returns a store over the pools in c, and starts its committers. It
// takes ownership of the pools: Close closes them.
func New(c Config) *Store {
	d, tune := c.Dialect, c.Tuning
	if err := tune.check(); err != nil {
		panic(err) // a dialect package's mistake, found by its first test rather than its first listing
	}
	s := &Store{d: &d, tune: tune, w: groupcommit.NewPool(c.Writer, tune.KeepStatements),
		r:       groupcommit.NewPool(c.Reader, tune.KeepStatements),
		pending: c.Pending, warn: c.Warnings, close: c.Close}
	if c.Reader == c.Writer {
		s.r = s.w
	}
	s.startGroup()
	return s
}

// Dialect names the database.
func (s *Store) Dialect() string { return s.d.Name }

// Ready pings both pools, then checks that every migration is applied.
func (s *Store) Ready(ctx context.Context) (err error) {
	defer s.wrap(&err, "Ready")
	if err := s.w.PingContext(ctx); err != nil {
		return unavailable(err)
	}
	if s.r != s.w {
		if err := s.r.PingContext(ctx); err != nil {
			return unavailable(err)
		}
	}
	if s.pending == nil {
		return nil
	}
	pending, err := s.pending(ctx)
	if err != nil {
		return unavailable(err)
	}
	if pending {
		return livestock.Errorf(livestock.KindUnavailable, "the database has migrations still to apply")
	}
	return nil
}

// Warnings names the database's settings that break a promise of
// Drover's (store.HealthStore).
func (s *Store) Warnings(ctx context.Context) (w []string, err error) {
	if s.warn == nil {
		return nil, nil
	}
	defer s.wrap(&err, "Warnings")
	return s.warn(ctx)
}

// Close commits the shared transactions already asked for, then closes the
// pools and anything else the store holds.
func (s *Store) Close() error {
	s.group.Stop()
	s.queue.wg.Wait()
	var errs []error
	if s.r != s.w {
		errs = append(errs, s.r.Close())
	}
	errs = append(errs, s.w.Close())
	if s.close != nil {
		errs = append(errs, s.close())
	}
	return errors.Join(errs...)
}
