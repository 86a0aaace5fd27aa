package postgres

import (
	"context"
	"database/sql"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the pgx driver
)

// MigrateTo takes the schema at url up or down to version, for tests of
// one migration.
func MigrateTo(ctx context.Context, url string, version int64) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return err
	}
	defer db.Close()
	p, err := newProvider(ctx, db)
	if err != nil {
		return err
	}
	if _, err = p.DownTo(ctx, version); err == nil {
		_, err = p.UpTo(ctx, version)
	}
	return err
}

// ReadNextIDs is the statement Open writes to take ids ahead.
var ReadNextIDs = readNextIDs
