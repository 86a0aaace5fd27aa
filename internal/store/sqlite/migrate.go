package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"

	"github.com/drover-registry/drover/internal/store/sqldb"
)

// migrations are the numbered schema changes, applied in order by goose.
//
//go:embed migrations/*.sql
var migrations embed.FS

// newProvider returns goose over db and the embedded migrations.
func newProvider(db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return nil, fmt.Errorf("sqlite: migrations: %w", err)
	}
	return p, nil
}

// migrate applies every pending migration through the writer. goose takes
// no lock here: one process owns a SQLite file, and its one writer
// connection serialises everything.
func migrate(ctx context.Context, w *sql.DB) error {
	p, err := newProvider(w)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	if err := sqldb.SchemaKnown(ctx, p); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return truncateWAL(ctx, w)
}

// truncateWAL empties the WAL when nothing else is using the file: a WAL
// keeps its size until the last connection closes, and after a migration
// that copies a table (00023), or a crash just after one, it holds every
// page of the copy. It does not wait: with another process on the file
// (drover trace beside a server, a backup) or a file it cannot write, the
// WAL stays as it was, which is no fault.
func truncateWAL(ctx context.Context, w *sql.DB) error {
	conn, err := w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return err
	}
	_, _ = conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	// The writer's own wait, as openPools sets it, for every later write.
	_, err = conn.ExecContext(ctx, "PRAGMA busy_timeout = "+busyTimeoutMS)
	return err
}
