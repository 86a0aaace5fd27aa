package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// EnvPostgres names the variable holding the URL of the PostgreSQL server
// tests use. Each test gets a schema of its own there.
const EnvPostgres = "DROVER_TEST_POSTGRES"

// Opener opens a fresh store of one dialect for a test or a benchmark.
type Opener struct {
	Name string
	Open func(testing.TB) store.Store
}

// Openers are the dialects every store test and benchmark runs on.
var Openers = []Opener{{"sqlite", OpenSQLite}, {"postgres", OpenPostgres}}

// Each runs body against a fresh store of each dialect, as the parallel
// subtests "sqlite" and "postgres".
func Each(t *testing.T, body func(t *testing.T, s store.Store)) {
	t.Helper()
	for _, d := range Openers {
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel()
			body(t, d.Open(t))
		})
	}
}

// OpenSQLite opens a store on a new file in a temporary directory, closed
// when the test ends.
func OpenSQLite(t testing.TB) store.Store {
	t.Helper()
	path := SQLitePath(t)
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("sqlite.Open(%q): %v", path, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// SQLitePath returns the path of a database file that does not exist yet,
// in a directory removed when the test ends.
func SQLitePath(t testing.TB) string {
	return filepath.Join(t.TempDir(), "drover.db")
}

// OpenPostgres opens a store on a fresh schema of the test server (see
// PostgresURL), closed when the test ends.
func OpenPostgres(t testing.TB) store.Store {
	t.Helper()
	u := PostgresURL(t)
	s, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatalf("postgres.Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// PostgresURL creates an empty schema drover_test_<random> on the server
// named by DROVER_TEST_POSTGRES, drops it when the test ends, and returns
// a URL whose search_path is that schema. Without the variable it skips
// the test, unless CI is set: a skipped PostgreSQL suite must not pass in
// CI.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgres)
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(EnvPostgres + " must be set in CI")
		}
		t.Skip(EnvPostgres + " is not set; skipping PostgreSQL")
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	schema := "drover_test_" + hex.EncodeToString(b)
	admin(t, base, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { admin(t, base, "DROP SCHEMA "+schema+" CASCADE") })
	return withSearchPath(t, base, schema)
}

// admin runs one statement on its own connection to the server.
func admin(t testing.TB, base, stmt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvPostgres, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// withSearchPath adds search_path to a URL or a keyword/value string.
func withSearchPath(t testing.TB, base, schema string) string {
	if !strings.HasPrefix(base, "postgres://") && !strings.HasPrefix(base, "postgresql://") {
		return base + " search_path=" + schema
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", EnvPostgres, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
