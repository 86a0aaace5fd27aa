package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// openStore opens the database named by dsn, applying its migrations: a
// postgres:// (or postgresql://) URL is PostgreSQL, a file path SQLite
// (databaseKind); anything else is refused rather than taken for a file.
func openStore(ctx context.Context, dsn string) (store.Store, error) {
	switch databaseKind(dsn) {
	case "postgres":
		return postgres.Open(ctx, dsn)
	case "sqlite":
		return sqlite.Open(ctx, dsn)
	}
	return nil, fmt.Errorf("--database must be %s", databaseRule)
}

// databaseRule is what --database takes, for the errors that refuse it.
const databaseRule = "an SQLite file path or a postgres:// URL (not empty, not :memory:, which would lose every record at exit)"

// databaseKind is "postgres" for a postgres:// or postgresql:// URL,
// "sqlite" for a file path, and "" for what serve cannot keep records
// in: nothing, an in-memory SQLite database, or a URL of another scheme
// (or a PostgreSQL one missing its //), which had been taken for a file
// name and failed later as "unable to open database file".
func databaseKind(dsn string) string {
	d := strings.ToLower(strings.TrimSpace(dsn))
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return "postgres"
	case d == "", strings.Contains(d, ":memory:"), strings.Contains(d, "mode=memory"),
		strings.HasPrefix(d, "postgres:"), strings.HasPrefix(d, "postgresql:"), strings.Contains(d, "://"):
		return "" // a file may well be called postgres.db
	}
	return "sqlite"
}
