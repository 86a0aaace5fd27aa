package postgres_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestNextIDsNamesTheSequences: the statement that takes ids ahead names
// the schema's own sequences as literals, resolved once when PostgreSQL
// parses it rather than looked up for every id, and takes ids from them.
func TestNextIDsNamesTheSequences(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	open(t, u) // migrates
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	query, err := postgres.ReadNextIDs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := db.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"'" + schema + ".requests_id_seq'", "'" + schema + ".jobs_id_seq'"} {
		if !strings.Contains(query, want) {
			t.Errorf("%s\ndoes not name %s", query, want)
		}
	}
	if strings.Contains(query, "pg_get_serial_sequence") {
		t.Errorf("%s\nlooks the sequences up for every id", query)
	}
	rows, err := db.QueryContext(ctx, query, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var last [2]int64
	n := 0
	for rows.Next() {
		var r, j int64
		if err := rows.Scan(&r, &j); err != nil {
			t.Fatal(err)
		}
		if r <= last[0] || j <= last[1] {
			t.Errorf("ids %d, %d after %d, %d", r, j, last[0], last[1])
		}
		last, n = [2]int64{r, j}, n+1
	}
	if err := rows.Err(); err != nil || n != 3 {
		t.Errorf("%d rows, %v; want 3", n, err)
	}
}
