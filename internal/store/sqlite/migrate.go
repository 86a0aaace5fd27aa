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
	// A WAL keeps its size until the last connection closes: after a
	// migration that copies a table (00023) it holds every page of the
	// copy, and after a crash whatever it held then. Nothing else uses the
	// file yet, so the checkpoint is complete and gives the space back.
	if _, err := w.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return fmt.Errorf("sqlite: checkpoint after migrating: %w", err)
	}
	return nil
}
