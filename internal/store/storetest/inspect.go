package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// Inspector reads what only tests look at, and so is not part of
// store.Store: one job as it is stored, the jobs in every state (which
// reads every job), and the rows Seed wrote. Both stores have it.
type Inspector interface {
	Job(ctx context.Context, id int64) (store.Job, error)
	JobCounts(ctx context.Context) (map[store.JobState]int, error)
	RowCounts(ctx context.Context) (map[string]int, error)
}

var (
	_ Inspector = (*sqlite.Store)(nil)
	_ Inspector = (*postgres.Store)(nil)
)

// Inspect returns the Inspector of s, which must be one of Drover's
// stores (as OpenSQLite, OpenPostgres and Each make).
func Inspect(s store.Store) Inspector { return s.(Inspector) }

// TxInspector is what tests read inside a transaction: the audit log as
// the transaction sees it, its own lines included. Both stores' Tx have it.
type TxInspector interface {
	AuditEntries(ctx context.Context, subject string) ([]store.AuditEntry, error)
}

// AuditEntries lists the audit lines of subject as tx sees them, oldest
// first.
func AuditEntries(ctx context.Context, tx store.Tx, subject string) ([]store.AuditEntry, error) {
	ti, ok := tx.(TxInspector)
	if !ok {
		return nil, fmt.Errorf("%T has no AuditEntries method", tx)
	}
	return ti.AuditEntries(ctx, subject)
}

// Audit lists the audit lines of subject, oldest first, read in a
// transaction of its own.
func Audit(t *testing.T, s store.Store, subject string) []store.AuditEntry {
	t.Helper()
	var got []store.AuditEntry
	err := s.InTx(ctx(t), func(c context.Context, tx store.Tx) (err error) {
		got, err = AuditEntries(c, tx, subject)
		return err
	})
	if err != nil {
		t.Fatalf("InTx(AuditEntries(%q)): %v", subject, err)
	}
	return got
}
