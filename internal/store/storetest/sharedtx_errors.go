package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testSharedTxErrors checks that a fn's error undoes its own writes only
// and goes to its own caller, as it is.
func testSharedTxErrors(t *testing.T, s store.Store) {
	const n = 20
	fns, want := make([]txFunc, n), make([]error, n)
	for i := range n {
		subject := fmt.Sprintf("e-%d", i)
		fns[i] = auditLine(subject)
		if i%2 == 1 {
			want[i] = fmt.Errorf("fn %d failed", i)
			fns[i] = func(c context.Context, tx store.Tx) error {
				if err := auditLine(subject)(c, tx); err != nil {
					return err
				}
				return want[i]
			}
		}
	}
	for i, err := range together(t, s, fns...) {
		if err != want[i] {
			t.Errorf("InSharedTx %d = %v; want %v", i, err, want[i])
		}
	}
	for i := range n {
		wantAudit(t, s, fmt.Sprintf("e-%d", i), want[i] == nil)
	}
	// A lone caller's error is its own too.
	if err := s.InSharedTx(ctx(t), func(c context.Context, tx store.Tx) error {
		_ = auditLine("lone")(c, tx)
		return errFn
	}); err != errFn {
		t.Errorf("lone InSharedTx = %v; want %v", err, errFn)
	}
	wantAudit(t, s, "lone", false)
}

// testSharedTxConflict checks that a conflict, or a statement the database
// refuses (which aborts a PostgreSQL transaction until its savepoint is
// rolled back), stays with the fn that met it.
func testSharedTxConflict(t *testing.T, s store.Store) {
	tracked := transfer("keeper1")
	tracked.TrackingID = "T-1"
	addRequests(t, s, tracked)
	badMovement := store.Movement{ID: 999_999, RequestID: 999_999, UserName: "keeper1", Species: livestock.SpeciesSheep,
		Source: farmA, Destination: farmB, TransferDate: ymd(2026, 1, 1), State: store.MovementCompleted}
	var swallowed error
	errs := together(t, s,
		auditLine("c-0"),
		func(c context.Context, tx store.Tx) error { // a trackingId used before
			_ = auditLine("c-1")(c, tx)
			_, err := tx.InsertRequest(c, tracked)
			return err
		},
		auditLine("c-2"),
		func(c context.Context, tx store.Tx) error { // a foreign key to no request
			_ = auditLine("c-3")(c, tx)
			return tx.InsertMovement(c, badMovement)
		},
		auditLine("c-4"),
		func(c context.Context, tx store.Tx) error { // the same, but the error is ignored
			_ = auditLine("c-5")(c, tx)
			swallowed = tx.InsertMovement(c, badMovement)
			return nil
		},
		auditLine("c-6"),
	)
	wantKind(t, "InSharedTx with a trackingId used before", errs[1], livestock.KindConflict)
	if errs[3] == nil {
		t.Errorf("InSharedTx of a movement of no request = nil; want an error")
	}
	if swallowed == nil {
		t.Errorf("InsertMovement of a movement of no request = nil; want an error")
	}
	for _, i := range []int{0, 2, 4, 6} {
		if errs[i] != nil {
			t.Errorf("InSharedTx %d beside the failures: %v", i, errs[i])
		}
		wantAudit(t, s, fmt.Sprintf("c-%d", i), true)
	}
	wantAudit(t, s, "c-1", false)
	wantAudit(t, s, "c-3", false)
	// Whether a transaction goes on after a refused statement is the
	// database's affair (SQLite does, PostgreSQL does not); either way the
	// caller's answer must match what was kept.
	wantAudit(t, s, "c-5", errs[5] == nil)
}
