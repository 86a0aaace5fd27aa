package postgres_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Exercise(t, func(t *testing.T) store.Store { return storetest.OpenPostgres(t) })
}

// open opens the store at u, closed when the test ends.
func open(t *testing.T, u string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// exec runs one statement on its own connection, behind the store.
func exec(t *testing.T, u, stmt string, args ...any) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), stmt, args...); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

func TestReopen(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	storetest.Reopen(t, func(t *testing.T) store.Store { return open(t, u) })
}

// TestReplicasStartTogether opens several stores on one new schema at once:
// the migration lock lets one migrate while the others wait.
func TestReplicasStartTogether(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			s, err := postgres.Open(t.Context(), u)
			if err != nil {
				t.Errorf("Open: %v", err)
				return
			}
			defer s.Close()
			if err := s.Ready(t.Context()); err != nil {
				t.Errorf("Ready: %v", err)
			}
		})
	}
	wg.Wait()
	if err := postgres.Migrate(t.Context(), u); err != nil {
		t.Errorf("Migrate with nothing to do: %v", err)
	}
}

// TestSearchPath checks that the tables are made in the URL's schema.
func TestSearchPath(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	open(t, u)
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	schema := parsed.Query().Get("search_path")
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	err = conn.QueryRow(t.Context(),
		`SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename IN ('jobs', 'users')`, schema).Scan(&n)
	if err != nil || n != 2 {
		t.Errorf("tables in %s = %d, %v; want 2", schema, n, err)
	}
}

// TestReadyPending checks that Ready fails while a migration is missing.
func TestReadyPending(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	s := open(t, u)
	exec(t, u, "DELETE FROM goose_db_version WHERE version_id = 1")
	if err := s.Ready(t.Context()); livestock.ErrorKind(err) != livestock.KindUnavailable {
		t.Errorf("Ready with a migration pending = %v; want KindUnavailable", err)
	}
}

// TestSchemaNewer: a database a later build migrated is refused, not
// served with statements for a schema it no longer has.
func TestSchemaNewer(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	open(t, u)
	exec(t, u, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (9999, true)")
	if err := postgres.Migrate(t.Context(), u); err == nil || !strings.Contains(err.Error(), "version 9999, newer than this build knows") {
		t.Errorf("Migrate of a newer schema = %v; want a refusal naming its version", err)
	}
}

func TestOpenUnavailable(t *testing.T) {
	t.Parallel()
	// Port 1 refuses connections.
	_, err := postgres.Open(t.Context(), "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=5")
	if livestock.ErrorKind(err) != livestock.KindUnavailable {
		t.Errorf("Open of a server that is not there = %v; want KindUnavailable", err)
	}
}

// TestLiveStatus checks migration 00009 (the live status values).
func TestLiveStatus(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	storetest.LiveStatus(t, open(t, u), behind(u))
}

// TestStoredSpecies checks that species keep their stored spelling.
func TestStoredSpecies(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	storetest.StoredSpecies(t, open(t, u), behind(u))
}

// TestStoredIdentifiers checks that tags, RFIDs and batch numbers are
// stored printed and read back parsed.
func TestStoredIdentifiers(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	storetest.StoredIdentifiers(t, open(t, u), behind(u))
}

// TestRegistrySpecies checks that flocks, tags and animals keep their
// species' stored spelling.
func TestRegistrySpecies(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	storetest.RegistrySpecies(t, open(t, u), behind(u))
}

// TestReplyKeys checks migration 00025 (replies keyed by the canonical
// UUID).
func TestReplyKeys(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	storetest.ReplyKeys(t, open(t, u), behind(u))
}

// TestModeMigration checks migration 00014 (the database's mode).
func TestModeMigration(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	storetest.ModeMigration(t, open(t, u), behind(u))
}

// behind reaches the schema at u behind the store, for migration tests.
func behind(u string) storetest.Behind {
	return storetest.Behind{
		To: func(t *testing.T, v int64) {
			if err := postgres.MigrateTo(t.Context(), u, v); err != nil {
				t.Fatalf("MigrateTo(%d): %v", v, err)
			}
		},
		Text: func(t *testing.T, q string, arg any) (s string) {
			conn, err := pgx.Connect(t.Context(), u)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			if err := conn.QueryRow(t.Context(), q, arg).Scan(&s); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			return s
		},
		Exec: func(t *testing.T, stmt string, args ...any) { exec(t, u, stmt, args...) },
	}
}

// tableStats closes s, then reads one row of counts (query, over
// pg_stat_user_tables in the test's schema) until two readings agree and
// done accepts them, or for 10 s: a backend writes its counts there as it
// exits, soon after Close.
func tableStats(t *testing.T, s *postgres.Store, u, query string, done func([]int64) bool) []int64 {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var last []int64
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		rows, err := conn.Query(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) ([]int64, error) {
			vals := make([]int64, len(r.FieldDescriptions()))
			ptrs := make([]any, len(vals))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			return vals, r.Scan(ptrs...)
		})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(c, last) && done(c) || time.Now().After(deadline) {
			return c
		}
		last = c
	}
}

// TestSettingWarnings: the store names each server setting under which a
// promise of Drover's does not hold, as a session of its own sees it: a
// URL that turns synchronous_commit off is told so, and autovacuum (a
// setting of the whole server) is named exactly when it is off.
func TestSettingWarnings(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	commitOff := func(w []string) bool {
		return slices.ContainsFunc(w, func(s string) bool { return strings.Contains(s, "synchronous_commit = off") })
	}
	vacuumOff := func(w []string) bool {
		return slices.ContainsFunc(w, func(s string) bool { return strings.Contains(s, "autovacuum = off") })
	}
	var autovacuum, commit string
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if err := conn.QueryRow(t.Context(), "SELECT current_setting('autovacuum'), current_setting('synchronous_commit')").
		Scan(&autovacuum, &commit); err != nil {
		t.Fatal(err)
	}

	w, err := open(t, u).Warnings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := vacuumOff(w), autovacuum == "off"; got != want {
		t.Errorf("autovacuum = %s on the server; warned %v, want %v: %q", autovacuum, got, want, w)
	}
	if got, want := commitOff(w), commit == "off"; got != want {
		t.Errorf("synchronous_commit = %s; warned %v, want %v: %q", commit, got, want, w)
	}

	w, err = open(t, u+"&synchronous_commit=off").Warnings(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !commitOff(w) {
		t.Errorf("a URL with synchronous_commit=off: warnings %q, want it named", w)
	}
}

// TestOpenCurrent: opening a schema as it is changes nothing: an empty
// schema gets no tables, one with a migration pending is refused rather
// than migrated, and a current one opens.
func TestOpenCurrent(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	tables := func() (n int) {
		t.Helper()
		conn, err := pgx.Connect(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := postgres.OpenCurrent(t.Context(), u); err == nil || !strings.Contains(err.Error(), "no Drover schema") {
		t.Errorf("OpenCurrent of an empty schema = %v; want a refusal", err)
	}
	if n := tables(); n != 0 {
		t.Errorf("OpenCurrent of an empty schema made %d tables", n)
	}
	// Another schema on the search_path holding a version table of its
	// own (another application's) does not make this one Drover's.
	other := storetest.PostgresURL(t)
	exec(t, other, "CREATE TABLE goose_db_version (id serial, version_id bigint, is_applied boolean, tstamp timestamp)")
	schemaOf := func(u string) string {
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		return parsed.Query().Get("search_path")
	}
	both := strings.Replace(u, "search_path="+schemaOf(u), "search_path="+schemaOf(u)+"%2C"+schemaOf(other), 1)
	if _, err := postgres.OpenCurrent(t.Context(), both); err == nil || !strings.Contains(err.Error(), "no Drover schema") {
		t.Errorf("OpenCurrent of an empty schema before another's version table = %v; want a refusal", err)
	}
	if n := tables(); n != 0 {
		t.Errorf("OpenCurrent of an empty schema before another's version table made %d tables", n)
	}

	if err := postgres.Migrate(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	s, err := postgres.OpenCurrent(t.Context(), u)
	if err != nil {
		t.Fatalf("OpenCurrent of a migrated schema: %v", err)
	}
	if err := s.Ready(t.Context()); err != nil {
		t.Errorf("Ready: %v", err)
	}
	s.Close()
	exec(t, u, "DELETE FROM goose_db_version WHERE version_id = (SELECT max(version_id) FROM goose_db_version)")
	if _, err := postgres.OpenCurrent(t.Context(), u); err == nil || !strings.Contains(err.Error(), "migrations still to apply") {
		t.Errorf("OpenCurrent with a migration pending = %v; want a refusal", err)
	}
}
