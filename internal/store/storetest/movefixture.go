package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Helpers of the movement tests: each test builds the few requests and
// movements it needs, so that no test depends on another's data.

// ymd is midnight UTC of a date, as a store returns dates.
func ymd(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// inTx runs fn in one transaction, failing the test when it fails.
func inTx(t *testing.T, s store.Store, fn func(c context.Context, tx store.Tx) error) {
	t.Helper()
	must(t, "InTx", s.InTx(ctx(t), fn))
}

// addRequests inserts rs in one transaction and returns their ids.
func addRequests(t *testing.T, s store.Store, rs ...store.Request) []int64 {
	t.Helper()
	ids := make([]int64, len(rs))
	inTx(t, s, func(c context.Context, tx store.Tx) (err error) {
		for i, r := range rs {
			if ids[i], err = tx.InsertRequest(c, r); err != nil {
				return err
			}
		}
		return nil
	})
	return ids
}

// transfer is a pending transfer request by user, concerning holdings.
func transfer(user string, holdings ...livestock.CPH) store.Request {
	return store.Request{Type: store.RequestTransfer, Status: store.StatusPending, UserName: user,
		RequestDate: base, CorrelationID: "c-" + user, Holdings: holdings, Content: []byte(`{}`)}
}

// addMovement inserts the transfer request that makes m, then m with the
// request's id, and returns the id. The request names m's transfer date
// at 00:00Z, as its date-time.
func addMovement(t *testing.T, s store.Store, m store.Movement) int64 {
	t.Helper()
	return addMovementAt(t, s, m, m.TransferDate)
}

// addMovementAt is addMovement with the request naming the date-time at.
func addMovementAt(t *testing.T, s store.Store, m store.Movement, at time.Time) int64 {
	t.Helper()
	inTx(t, s, func(c context.Context, tx store.Tx) (err error) {
		r := transfer(m.UserName, m.Source, m.Destination)
		r.MovementDate = at
		if m.ID, err = tx.InsertRequest(c, r); err != nil {
			return err
		}
		return tx.InsertMovement(c, m)
	})
	return m.ID
}

// pending is a movement of sheep from farmA awaiting the review of holding.
func pending(holding livestock.CPH, species livestock.Species, transferDate time.Time) store.Movement {
	return store.Movement{UserName: "keeper1", Species: species, Source: farmA, Destination: holding,
		ReviewHolding: holding, TransferDate: transferDate, State: store.MovementPendingReview, AnimalCount: 1,
		Batches: []store.MovementBatch{{BatchNumber: batch("UK010001"), AnimalTotal: 1}}}
}

// ids returns the ids of requests, in their order.
func ids(list []store.Request) []int64 {
	out := make([]int64, len(list))
	for i, r := range list {
		out[i] = r.ID
	}
	return out
}

// movementIDs returns the ids of movements, in their order.
func movementIDs(list []store.Movement) []int64 {
	out := make([]int64, len(list))
	for i, m := range list {
		out[i] = m.ID
	}
	return out
}

// pick returns ids[i] for each i of at.
func pick(ids []int64, at ...int) []int64 {
	out := make([]int64, len(at))
	for j, i := range at {
		out[j] = ids[i]
	}
	return out
}

// wantIDs fails the test when got differs from want (nil and empty alike).
func wantIDs(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpOpts); diff != "" {
		t.Errorf("%s: ids (-want +got):\n%s", what, diff)
	}
}
