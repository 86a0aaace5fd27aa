package postgres

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// TestIdleTransactionEnds: every connection ends a transaction left idle
// (a replica stopped while holding it), so its locks do not hold every
// other replica's jobs; a URL that sets the limit keeps its own.
func TestIdleTransactionEnds(t *testing.T) {
	base := os.Getenv("DROVER_TEST_POSTGRES")
	if base == "" {
		t.Skip("DROVER_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	open := func(url string) *pgxpool.Pool {
		t.Helper()
		cfg, err := poolConfig(url)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	var got string
	if err := open(base).QueryRow(ctx, "SHOW idle_in_transaction_session_timeout").Scan(&got); err != nil || got != idleInTransaction {
		t.Errorf("idle_in_transaction_session_timeout = %q (%v), want %s", got, err, idleInTransaction)
	}

	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	p := open(base + sep + "idle_in_transaction_session_timeout=300")
	const lock = "SELECT pg_advisory_xact_lock(hashtext('drover.test.idle-transaction'))"
	stopped, err := p.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stopped.Rollback(ctx)
	if _, err := stopped.Exec(ctx, lock); err != nil {
		t.Fatal(err)
	}
	// The holder sends nothing more; another session gets the lock once
	// the server has ended the holder's.
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	other, err := p.Begin(wait)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback(ctx)
	if _, err := other.Exec(wait, lock); err != nil {
		t.Fatalf("the lock of a transaction idle for 5 s was still held: %v", err)
	}
}

// TestMissingSchema: a search_path naming no schema that exists is said
// so, not reported as goose's missing version table.
func TestMissingSchema(t *testing.T) {
	base := os.Getenv("DROVER_TEST_POSTGRES")
	if base == "" {
		t.Skip("DROVER_TEST_POSTGRES is not set")
	}
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	err := Migrate(context.Background(), base+sep+"search_path=drover_no_such_schema")
	if err == nil || !strings.Contains(err.Error(), "no schema of the search_path (drover_no_such_schema) exists") {
		t.Errorf("Migrate into a missing schema = %v; want it named", err)
	}
}
