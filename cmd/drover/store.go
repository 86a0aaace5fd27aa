package main

import (
	"context"
	"strings"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// openStore opens the database named by dsn, applying its migrations: a
// postgres:// (or postgresql://) URL is PostgreSQL, anything else a path
// to an SQLite file.
func openStore(ctx context.Context, dsn string) (store.Store, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(ctx, dsn)
}
