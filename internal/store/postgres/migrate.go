package postgres

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"hash/fnv"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/drover-registry/drover/internal/store/sqldb"
)

// migrations are the numbered schema changes, applied in order by goose.
//
//go:embed migrations/*.sql
var migrations embed.FS

// newProvider returns goose over db and the embedded migrations, with a
// session lock (a PostgreSQL advisory lock) so that replicas starting
// together apply each migration once. The lock is keyed by database and
// schema: replicas of one deployment share it, while deployments (or
// tests) in other schemas of the same server do not wait on each other.
func newProvider(ctx context.Context, db *sql.DB) (*goose.Provider, error) {
	var where string
	var schema sql.NullString
	err := db.QueryRowContext(ctx,
		`SELECT current_database() || '.' || coalesce(current_schema(), ''), current_schema()`).Scan(&where, &schema)
	if err != nil {
		return nil, err
	}
	if !schema.Valid {
		// Every schema search_path names is missing (or not this role's to
		// use): goose would say only that its version table does not exist.
		var path string
		if err := db.QueryRowContext(ctx, `SHOW search_path`).Scan(&path); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no schema of the search_path (%s) exists in database %s, or this role may not use it: create it (CREATE SCHEMA …), grant USAGE and CREATE on it, or name another", path, where[:len(where)-1])
	}
	h := fnv.New64a()
	h.Write([]byte("drover.migrate." + where))
	// Retry the lock every second for five minutes.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(int64(h.Sum64())), lock.WithLockTimeout(1, 300))
	if err != nil {
		return nil, err
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// migrate applies every pending migration and returns the provider, which
// Ready asks again later.
func migrate(ctx context.Context, db *sql.DB) (*goose.Provider, error) {
	p, err := newProvider(ctx, db)
	if err == nil {
		_, err = p.Up(ctx)
	}
	if err == nil {
		err = sqldb.SchemaKnown(ctx, p)
	}
	if err != nil {
		return nil, wrapOpen("migrate", err)
	}
	return p, nil
}
