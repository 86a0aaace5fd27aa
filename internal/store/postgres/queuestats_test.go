package postgres_test

import (
	"context"
	"testing"

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
