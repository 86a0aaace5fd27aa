package sqlite

import (
	"context"
	"database/sql"
)

// MigrateTo takes the schema of the file at path up or down to version,
// for tests of one migration.
func MigrateTo(ctx context.Context, path string, version int64) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	p, err := newProvider(db)
	if err != nil {
		return err
	}
	if _, err = p.DownTo(ctx, version); err == nil {
		_, err = p.UpTo(ctx, version)
	}
	return err
}

// OpenPools opens the writer and the readers as Open does, for tests of
// their settings.
var OpenPools = openPools

// ReaderMmap is how much of the file each reader maps.
const ReaderMmap = readerMmap
