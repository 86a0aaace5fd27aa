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

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

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
	pool, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	db := stdlib.OpenDBFromPool(pool)
	p, err := migrate(ctx, db)
	if err != nil {
		_ = db.Close()
		pool.Close()
		return nil, err
	}
	types, err := readColumnTypes(ctx, db)
	if err != nil {
		_ = db.Close()
		pool.Close()
		return nil, wrapOpen("read the column types", err)
	}
	nextIDs, err := readNextIDs(ctx, db)
	if err != nil {
		_ = db.Close()
		pool.Close()
		return nil, wrapOpen("read the id sequences", err)
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
