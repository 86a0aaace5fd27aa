package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// walSync returns the writer's sync (sqldb's Config.Sync): the writer
// commits with synchronous=NORMAL, so a COMMIT writes its pages into the
// WAL file without waiting for the disk, and this fsyncs that file,
// making every commit before it durable. SQLite syncs the WAL itself
// before it copies pages back into the database file (a checkpoint), and
// the database file after, so the commits not yet on disk are only ever
// at the WAL's end, which is what this syncs. The file is opened for each
// sync, so that a WAL deleted and made again is still the one synced.
func walSync(ctx context.Context, w *sql.DB) (func() error, error) {
	var seq int
	var name, file string
	if err := w.QueryRowContext(ctx, `SELECT seq, name, file FROM pragma_database_list WHERE name = 'main'`).
		Scan(&seq, &name, &file); err != nil {
		return nil, fmt.Errorf("sqlite: reading the database's file name: %w", err)
	}
	if file == "" { // an in-memory database: nothing is durable
		return func() error { return nil }, nil
	}
	var mode string
	if err := w.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		return nil, fmt.Errorf("sqlite: reading the journal mode: %w", err)
	}
	if mode != "wal" { // the rollback journal with synchronous=NORMAL is not durable
		return nil, fmt.Errorf("sqlite: %s is in journal mode %q, not WAL; is its file system one WAL cannot work on?", file, mode)
	}
	wal := file + "-wal"
	return func() error {
		f, err := os.OpenFile(wal, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			// SQLite deletes the WAL only when its last connection closes,
			// after copying it into the database file and syncing that.
			return nil
		}
		if err != nil {
			return fmt.Errorf("sqlite: opening the WAL to sync it: %w", err)
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("sqlite: syncing the WAL: %w", err)
		}
		return nil
	}, nil
}
