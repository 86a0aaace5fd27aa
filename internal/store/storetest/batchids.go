package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testBatchMovementIDs: every batch line of every movement has its own
// id; a line dropped by UpdateMovement takes its id with it, and no later
// line is given that id again (a stale review naming it must not find
// another batch).
func testBatchMovementIDs(t *testing.T, s store.Store) {
	a, b := fullMovement(), pending(farmB, livestock.SpeciesSheep, ymd(2026, 3, 2))
	a.ID, b.ID = addMovement(t, s, a), addMovement(t, s, b)
	seen := map[int64]int64{} // id → movement
	for _, id := range []int64{a.ID, b.ID} {
		for _, line := range movement(t, s, id).Batches {
			if line.ID <= 0 || seen[line.ID] != 0 {
				t.Fatalf("movement %d has a line with batch id %d: want a positive id no other line has (%v)", id, line.ID, seen)
			}
			seen[line.ID] = id
		}
	}
	// A correction's content replaces a's lines: one dropped, one new.
	var dropped int64
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		m, err := tx.LockMovement(c, a.ID)
		if err != nil {
			return err
		}
		dropped = m.Batches[0].ID
		m.Batches = []store.MovementBatch{m.Batches[1], {BatchNumber: batch("UK010007"), AnimalTotal: 4}}
		return tx.UpdateMovement(c, m)
	})
	c := pending(farmB, livestock.SpeciesSheep, ymd(2026, 3, 3))
	c.ID = addMovement(t, s, c)
	for _, id := range []int64{a.ID, c.ID} {
		for _, line := range movement(t, s, id).Batches {
			if line.ID == dropped || line.ID <= 0 {
				t.Errorf("movement %d has a line with batch id %d after id %d was dropped", id, line.ID, dropped)
			}
		}
	}
	if got := movement(t, s, a.ID).Batches[0].ID; seen[got] != a.ID {
		t.Errorf("the line a kept has batch id %d, not one of its own before (%v)", got, seen)
	}
	// PendingReviews shows the same ids as Movement.
	list := reviews(t, s, store.ReviewQuery{Holding: farmB, Species: livestock.SpeciesSheep})
	for _, m := range list {
		if diff := cmp.Diff(movement(t, s, m.ID).Batches, m.Batches, cmpOpts); diff != "" {
			t.Errorf("PendingReviews movement %d batches (-Movement +PendingReviews):\n%s", m.ID, diff)
		}
	}
}

// testRequestsByID: requests of any type and user, by id; unknown ids are
// absent, repeated ids read once.
func testRequestsByID(t *testing.T, s store.Store) {
	ids := addRequests(t, s, transfer("keeper1", farmA), transfer("keeper2", farmB))
	got, err := s.RequestsByID(ctx(t), []int64{ids[1], ids[0], ids[1], ids[1] + 1000})
	must(t, "RequestsByID", err)
	var keys []int64
	for id, r := range got {
		keys = append(keys, id)
		if r.ID != id {
			t.Errorf("RequestsByID[%d] is request %d", id, r.ID)
		}
	}
	slices.Sort(keys)
	wantIDs(t, "RequestsByID", keys, ids)
	if got[ids[1]].UserName != "keeper2" || string(got[ids[1]].Content) != `{}` {
		t.Errorf("RequestsByID[%d] = %+v, want keeper2's transfer with its content", ids[1], got[ids[1]])
	}
	if none, err := s.RequestsByID(ctx(t), nil); err != nil || len(none) != 0 {
		t.Errorf("RequestsByID(nil) = %v, %v; want none", none, err)
	}
}
