// Package postgres keeps Drover's records in PostgreSQL, for several
// replicas sharing one server. It wraps pgx (its pool, under database/sql
// through pgx's stdlib) and hands the queries to package sqldb.
//
// The connection URL may name a schema with search_path (for example
// postgres://host/db?search_path=drover); pgx passes it to the server as a
// run-time parameter, and every table lives in that schema.
package postgres

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb"
)

// Store is a store.Store on a PostgreSQL database.
type Store struct {
	*sqldb.Store
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url and applies any pending migration,
// taking a lock so that replicas starting together migrate one at a time.
func Open(ctx context.Context, url string) (*Store, error) {
	return open(ctx, url, migrate)
}

// OpenCurrent connects to the database at url as it is, changing nothing:
// a schema not at this build's version (none, behind or ahead) is refused
// (sqldb.SchemaCurrent) rather than migrated.
func OpenCurrent(ctx context.Context, url string) (*Store, error) {
	return open(ctx, url, func(ctx context.Context, db *sql.DB) (*goose.Provider, error) {
		var versioned bool
		// In the schema goose writes to, not anywhere on the search_path.
		const versionTable = "SELECT coalesce(to_regclass(format('%I.goose_db_version', current_schema())) IS NOT NULL, false)"
		if err := db.QueryRowContext(ctx, versionTable).Scan(&versioned); err != nil {
			return nil, wrapOpen("read the schema's version", err)
		}
		p, err := newProvider(ctx, db)
		if err == nil {
			err = sqldb.SchemaCurrent(ctx, p, versioned)
		}
		if err != nil {
			return nil, wrapOpen("check the schema", err)
		}
		return p, nil
	})
}

// open connects to the database at url, brings its schema to this build's
// or checks that it is (prepare), and makes the store.
func open(ctx context.Context, url string, prepare func(context.Context, *sql.DB) (*goose.Provider, error)) (*Store, error) {
	pool, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	db := stdlib.OpenDBFromPool(pool)
	fail := func(err error) (*Store, error) {
		_ = db.Close()
		pool.Close()
		return nil, err
	}
	p, err := prepare(ctx, db)
	if err != nil {
		return fail(err)
	}
	types, err := readColumnTypes(ctx, db)
	if err != nil {
		return fail(wrapOpen("read the column types", err))
	}
	nextIDs, err := readNextIDs(ctx, db)
	if err != nil {
		return fail(wrapOpen("read the id sequences", err))
	}
	return &Store{sqldb.New(sqldb.Config{
		Dialect: dialect,
		Tuning:  tuning(int(pool.Config().MaxConns), types, nextIDs),
		Writer:  db,
		Reader:  db,
		Pending: p.HasPending,
		Warnings: func(ctx context.Context) ([]string, error) {
			return settingWarnings(ctx, db)
		},
		Close: func() error { pool.Close(); return nil },
	})}, nil
}

// Migrate applies any pending migration to the database at url, under the
// same lock as Open, and disconnects.
func Migrate(ctx context.Context, url string) error {
	pool, err := connect(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	_, err = migrate(ctx, db)
	return err
}

// connect makes the pool and checks that the server answers, so that a
// wrong URL fails at start rather than at the first request.
func connect(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := poolConfig(url)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, wrapOpen("connect", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, wrapOpen("connect", err)
	}
	return pool, nil
}
