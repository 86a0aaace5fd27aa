package storetest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/store"
)

// testMovementsOnRoute: the movements between two holdings on one
// transfer date, in every state, in id order, with their devices, batches
// and duplicates; none of another route or date.
func testMovementsOnRoute(t *testing.T, s store.Store) {
	on := ymd(2026, 3, 10)
	first := fullMovement() // farmA → farmB, pending, with duplicates
	first.ID = addMovement(t, s, first)
	done := pending(farmB.String(), "Goats", on)
	done.State, done.ReviewHolding, done.ArrivalDate = store.MovementCompleted, "", on
	done.ID = addMovement(t, s, done)
	for _, other := range []store.Movement{pending(farmB.String(), "Sheep", ymd(2026, 3, 11)), pending(market.String(), "Sheep", on)} {
		addMovement(t, s, other)
	}
	back := pending(farmA.String(), "Sheep", on)
	back.Source = farmB.String()
	addMovement(t, s, back)

	var got []store.Movement
	inTx(t, s, func(c context.Context, tx store.Tx) (err error) {
		got, err = tx.MovementsOnRoute(c, farmA.String(), farmB.String(), on)
		return err
	})
	if diff := cmp.Diff([]int64{first.ID, done.ID}, movementIDs(got)); diff != "" {
		t.Fatalf("MovementsOnRoute ids (-want +got):\n%s", diff)
	}
	want := movement(t, s, first.ID)
	if diff := cmp.Diff(want, got[0]); diff != "" || len(got[0].Duplicates) != 2 || len(got[0].Devices) != 2 {
		t.Errorf("MovementsOnRoute's first movement (-Movement +MovementsOnRoute):\n%s", diff)
	}
}
