package sqlite

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// A database SQLite refuses to write (SQLITE_READONLY and its extended
// codes: a read-only file or directory, a file moved away while open) is
// unavailable, a 503 with Retry-After, as a PostgreSQL that cannot be
// reached is; never an internal fault. The errors are the driver's own:
// root, who may run the tests, writes a read-only file regardless, so
// they are raised by a query-only connection and by a moved file.
func TestReadOnlyIsUnavailable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		query string
		spoil func(path string) error
	}{
		{"query only", "?_pragma=query_only(1)", func(string) error { return nil }},
		{"file moved", "", func(path string) error { return os.Rename(path, path+".moved") }},
	} {
		path := filepath.Join(t.TempDir(), "db.sqlite")
		setup, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer setup.Close()
		if _, err := setup.Exec(`CREATE TABLE t (x INTEGER)`); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", path+tc.query)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.Ping(); err != nil {
			t.Fatal(err)
		}
		if err := tc.spoil(path); err != nil {
			t.Fatal(err)
		}
		_, err = db.Exec(`INSERT INTO t VALUES (1)`)
		if err == nil {
			t.Fatalf("%s: the write succeeded", tc.name)
		}
		if k := livestock.ErrorKind(dialect.Error("Op", err)); k != livestock.KindUnavailable {
			t.Errorf("%s: kind %v for %v, want unavailable", tc.name, k, err)
		}
	}
}
