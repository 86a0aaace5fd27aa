package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestStatementsKept checks that the SQLite store prepares a statement
// that transactions run and keeps it (on PostgreSQL pgx keeps its own),
// and that transactions running the kept statement write as before,
// whether they commit or roll back.
func TestStatementsKept(t *testing.T) {
	t.Parallel()
	s := unwrap(t, storetest.OpenSQLite(t))
	ctx := t.Context()
	write := func(i int, keep bool) {
		t.Helper()
		err := s.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
			if err := audit(ctx, tx, fmt.Sprintf("kept:%d", i)); err != nil || keep {
				return err
			}
			return errDiscard
		})
		if err != nil && (keep || err != errDiscard) {
			t.Fatalf("InSharedTx %d: %v", i, err)
		}
	}
	write(0, true)
	// The statement is prepared on another goroutine once the writer is
	// free: wait for it, but not for ever.
	for wait := time.Now(); !sqldb.Kept(s, sqldb.AuditSQL) && time.Since(wait) < 30*time.Second; {
		time.Sleep(time.Millisecond)
	}
	if !sqldb.Kept(s, sqldb.AuditSQL) {
		t.Fatal("the audit statement was never kept")
	}
	for i := 1; i <= 3; i++ {
		write(i, i != 2)
	}
	for i, want := range []int{1, 1, 0, 1} {
		wantAudit(t, s, fmt.Sprintf("kept:%d", i), want)
	}
}

var errDiscard = errors.New("discard this write")
