package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// openStore opens the database named by dsn, applying its migrations: a
// postgres:// (or postgresql://) URL is PostgreSQL, a file path SQLite
// (databaseKind); anything else is refused rather than taken for a file.
func openStore(ctx context.Context, dsn string) (store.Store, error) {
	return openWith(ctx, dsn, false)
}

// openCurrentStore opens the database named by dsn as it is, for a command
// that must change nothing (drover trace): it creates no database and
// applies no migration, and refuses a database not at this build's schema.
func openCurrentStore(ctx context.Context, dsn string) (store.Store, error) {
	return openWith(ctx, dsn, true)
}

// openWith is openStore, or openCurrentStore when current.
func openWith(ctx context.Context, dsn string, current bool) (st store.Store, err error) {
	switch databaseKind(dsn) {
	case "postgres":
		if current {
			st, err = postgres.OpenCurrent(ctx, dsn)
		} else {
			st, err = postgres.Open(ctx, dsn)
		}
	case "sqlite":
		if err := sqliteFileUsable(dsn); err != nil {
			return nil, err
		}
		if current {
			st, err = sqlite.OpenCurrent(ctx, dsn)
		} else {
			st, err = sqlite.Open(ctx, dsn)
		}
	default:
		return nil, fmt.Errorf("--database must be %s", databaseRule)
	}
	if err != nil {
		// The store's error says what a request would be told (the
		// database is unavailable; try again later); at startup the
		// operator needs its cause.
		var le *livestock.Error
		if errors.As(err, &le) && le.Err != nil {
			err = le.Err
		}
		return nil, fmt.Errorf("cannot open the database: %w", err)
	}
	return st, nil
}

// sqliteFileUsable refuses an SQLite path that cannot be a database file
// before SQLite reports it as "unable to open database file": a
// directory, or a file in a directory that does not exist.
func sqliteFileUsable(dsn string) error {
	path, _, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--database %s is a directory; name a file in it", path)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("--database %s: the directory %s does not exist", path, dir)
	}
	return nil
}

// databaseRule is what --database takes, for the errors that refuse it.
const databaseRule = "an SQLite file path or a postgres:// URL (not empty, not :memory:, which would lose every record at exit; " +
	"a keyword=value connection string is written as a postgres:// URL)"

// databaseKind is "postgres" for a postgres:// or postgresql:// URL,
// "sqlite" for a file path, and "" for what serve cannot keep records
// in: nothing, an in-memory SQLite database, or a URL of another scheme
// (or a PostgreSQL one missing its //), which had been taken for a file
// name and failed later as "unable to open database file". A libpq
// keyword=value string (host=… dbname=…) is "" too: taken for a file
// name, it made a local SQLite database, and replicas meant to share
// one PostgreSQL each kept their own.
func databaseKind(dsn string) string {
	d := strings.ToLower(strings.TrimSpace(dsn))
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return "postgres"
	case d == "", strings.Contains(d, ":memory:"), strings.Contains(d, "mode=memory"),
		strings.HasPrefix(d, "postgres:"), strings.HasPrefix(d, "postgresql:"), strings.Contains(d, "://"),
		keywordValue(d):
		return "" // a file may well be called postgres.db
	}
	return "sqlite"
}

// keywordValue reports whether d (lower case) is written as a libpq
// connection string: a word, then =, where the word is one of libpq's
// keywords or another key=value pair follows after a space.
func keywordValue(d string) bool {
	key, rest, ok := strings.Cut(strings.TrimSpace(d), "=")
	if !ok || key == "" || strings.Trim(key, "abcdefghijklmnopqrstuvwxyz_") != "" {
		return false
	}
	if slices.Contains(libpqKeywords, key) {
		return true
	}
	fields := strings.Fields(rest) // the first is the first key's value
	return len(fields) > 1 && slices.ContainsFunc(fields[1:], func(f string) bool {
		k, _, ok := strings.Cut(f, "=")
		return ok && k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyz_") == ""
	})
}

// libpqKeywords are the connection keywords of libpq (PostgreSQL 17).
var libpqKeywords = []string{"host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth",
	"channel_binding", "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
	"keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication",
	"gssencmode", "sslmode", "sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode",
	"sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version",
	"krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs", "load_balance_hosts"}
