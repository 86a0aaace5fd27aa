package sqlite_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqlite"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// A database file that another process holds locked past the caller's
// deadline is unavailable (503 or, with the deadline in the chain, 504),
// never an internal fault.
func TestLockedFileIsUnavailable(t *testing.T) {
	t.Parallel()
	path := storetest.SQLitePath(t)
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")

	// The writer waits on the lock (busy timeout) until ctx ends.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err = s.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
		_, err := tx.EnqueueJob(ctx, store.NewJob{Kind: "k"})
		return err
	})
	if k := livestock.ErrorKind(err); k != livestock.KindUnavailable {
		t.Errorf("write while locked: kind %v, error %v", k, err)
	}
}
