package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestQueueStatistics: once a few thousand jobs are queued the store has
// analyzed the jobs table itself, rather than leave the claim planned on
// the statistics of an empty queue until autovacuum comes round, and the
// tables the listings read as well.
func TestQueueStatistics(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	s, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	enqueue2500(t, s)
	if err := s.Close(); err != nil { // waits for the refresh
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	// The listing tables too: at 1,000 jobs, then 2,000.
	for _, table := range []string{"jobs", "requests", "request_holdings"} {
		var analyzed bool
		err = conn.QueryRow(t.Context(), `SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables
			WHERE relname = $1 AND schemaname = current_schema()`, table).Scan(&analyzed)
		if err != nil {
			t.Fatal(err)
		}
		if !analyzed {
			t.Errorf("2,500 jobs queued and the %s table was never analyzed", table)
		}
	}
}

// TestGrownTablesLeftToAutovacuum: once the jobs and requests tables hold
// more rows than the store analyzes itself, the jobs enqueued start no
// ANALYZE of either: on a registry of a million requests those took a
// third of the server's time under load.
func TestGrownTablesLeftToAutovacuum(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	s, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(t.Context(), `
		INSERT INTO jobs (kind, payload, state, run_at, created_at, finished_at)
			SELECT 'old', '', 'done', now(), now(), now() FROM generate_series(1, 12000);
		INSERT INTO requests (type, status, user_name, request_date, updated_date, species, correlation_id,
				is_full_undone, undo_supported, content, errors, warnings, document_ref)
			SELECT 'TransferRequest', 'Success', 'keeper1', now(), now(), 'Sheep', 'c', false, false, '', '[]', '[]', ''
			FROM generate_series(1, 101000);
		ANALYZE jobs, requests, request_holdings`)
	if err != nil {
		t.Fatal(err)
	}
	analyzed := func() map[string]int64 {
		counts := map[string]int64{}
		for _, table := range []string{"jobs", "requests", "request_holdings"} {
			var n int64
			err := conn.QueryRow(t.Context(), `SELECT analyze_count FROM pg_stat_user_tables
				WHERE relname = $1 AND schemaname = current_schema()`, table).Scan(&n)
			if err != nil {
				t.Fatal(err)
			}
			counts[table] = n
		}
		return counts
	}
	before := analyzed()
	enqueue2500(t, s)
	if err := s.Close(); err != nil { // waits for any refresh
		t.Fatal(err)
	}
	// The counts reach pg_stat_user_tables when a backend reports them;
	// a refresh that ran would be counted by its backend before it ends.
	time.Sleep(time.Second)
	if after := analyzed(); after["jobs"] != before["jobs"] || after["requests"] != before["requests"] {
		t.Errorf("2,500 jobs queued on grown tables: analyze counts %v, then %v; want them unchanged", before, after)
	}
}

// enqueue2500 queues 2,500 jobs in five transactions of 500.
func enqueue2500(t *testing.T, s store.Store) {
	t.Helper()
	for range 5 {
		err := s.InTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
			for range 500 {
				if _, err := tx.EnqueueJob(ctx, store.NewJob{Kind: "queued"}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
