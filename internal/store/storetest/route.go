package storetest

import (
	"cmp"
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testMovementsOnRoute: the movements between two holdings on one
// transfer date reported by one side, awaiting review, completed or
// accepted, in id order, with their devices, batches and duplicates; none
// of another route, date, side or state.
func testMovementsOnRoute(t *testing.T, s store.Store) {
	on := ymd(2026, 3, 10)
	first := fullMovement() // farmA → farmB, pending, reported by the destination, with duplicates
	first.ID = addMovement(t, s, first)
	done := pending(farmB, livestock.SpeciesGoats, on)
	done.State, done.ReviewHolding, done.ArrivalDate, done.ReportedBy = store.MovementCompleted, livestock.CPH{}, on, store.SideDestination
	done.ID = addMovement(t, s, done)
	accepted := done
	accepted.State = store.MovementAccepted
	accepted.ID = addMovement(t, s, accepted)
	for _, state := range []store.MovementState{store.MovementUndone, store.MovementRejected} {
		gone := done
		gone.State = state
		addMovement(t, s, gone)
	}
	offMove := pending(farmB, livestock.SpeciesSheep, on)
	offMove.ReportedBy = store.SideDeparture
	for _, other := range []store.Movement{pending(farmB, livestock.SpeciesSheep, ymd(2026, 3, 11)), pending(market, livestock.SpeciesSheep, on), offMove} {
		other.ReportedBy = cmp.Or(other.ReportedBy, store.SideDestination)
		addMovement(t, s, other)
	}
	back := pending(farmA, livestock.SpeciesSheep, on)
	back.Source, back.ReportedBy = farmB, store.SideDestination
	addMovement(t, s, back)

	var got []store.Movement
	inTx(t, s, func(c context.Context, tx store.Tx) (err error) {
		got, err = tx.MovementsOnRoute(c, farmA, farmB, on, store.SideDestination)
		return err
	})
	if diff := gocmp.Diff([]int64{first.ID, done.ID, accepted.ID}, movementIDs(got), cmpOpts); diff != "" {
		t.Fatalf("MovementsOnRoute ids (-want +got):\n%s", diff)
	}
	want := movement(t, s, first.ID)
	if diff := gocmp.Diff(want, got[0], cmpOpts); diff != "" || len(got[0].Duplicates) != 2 || len(got[0].Devices) != 2 {
		t.Errorf("MovementsOnRoute's first movement (-Movement +MovementsOnRoute):\n%s", diff)
	}
}
