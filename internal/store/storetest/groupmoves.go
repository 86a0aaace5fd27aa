package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testGroupMoveReads runs, in groups, fns that each read a sheep, the
// movements of a route and of arrivals and the sheep's state in transit,
// then record a movement of it awaiting review and one completed of a
// batch, and move the sheep, then read again: every read
// sees what the store holds, the writes of the fn itself and of the fns
// before it in its group among them. A group keeps what it read of moves
// for its later fns (sqldb's groupmoves.go); a read kept past a write
// that changed it would be seen here. A wrong read is noted rather than
// returned: an error would have the group run again with savepoints,
// which keep nothing, and the second run would pass.
func testGroupMoveReads(t *testing.T, s store.Store) {
	c := ctx(t)
	_, err := s.Seed(c, fixture())
	must(t, "Seed", err)
	const sheep = "UK0100001 00001"
	day := ymd(2026, 3, 2)
	var mu sync.Mutex
	var wrong []error
	on, recorded := farmA, 0 // where the sheep is, and the movements recorded of it
	other := map[livestock.CPH]livestock.CPH{farmA: farmB, farmB: farmA}
	fns := make([]txFunc, 8)
	for i := range fns {
		fns[i] = func(c context.Context, tx store.Tx) error {
			mu.Lock()
			defer mu.Unlock()
			look := func(when string, wantOn livestock.CPH, wantRecorded int) error {
				animals, err := tx.Animals(c, []string{sheep})
				route, err2 := tx.MovementsOnRoute(c, farmA, farmB, day, store.SideDeparture)
				arrivals, err3 := tx.ArrivalsOn(c, farmB, day, day)
				moving, err4 := tx.InTransit(c, []string{sheep})
				if err := errors.Join(err, err2, err3, err4); err != nil {
					return err
				}
				if got := animals[sheep].CPH; got != wantOn {
					return fmt.Errorf("call %d, %s: the sheep is on %s; want %s", i, when, got, wantOn)
				}
				if len(route) != 2*wantRecorded || len(arrivals) != wantRecorded || (moving[sheep] != 0) != (wantRecorded > 0) {
					return fmt.Errorf("call %d, %s: %d movements on the route, %d arrivals, in transit on %d; want %d recorded",
						i, when, len(route), len(arrivals), moving[sheep], wantRecorded)
				}
				return nil
			}
			if err := look("before its writes", on, recorded); err != nil {
				wrong = append(wrong, err)
			}
			m := pending(farmB, livestock.SpeciesSheep, day)
			m.ReportedBy = store.SideDeparture
			m.Devices = []store.MovementDevice{{Identifier: tag(livestock.SpeciesSheep, sheep), PriorCPH: on, PriorOnSince: day}}
			// and one of another animal that arrived, which ArrivalsOn reads
			// (one awaiting review has brought nothing yet).
			arrived := m
			arrived.State, arrived.ReviewHolding, arrived.ArrivalDate, arrived.Devices = store.MovementCompleted, livestock.CPH{}, day, nil
			for _, mv := range []*store.Movement{&m, &arrived} {
				var err error
				if mv.ID, err = tx.InsertRequest(c, transfer("keeper1", farmA, farmB)); err != nil {
					return err
				}
				if err := tx.InsertMovement(c, *mv); err != nil {
					return err
				}
			}
			if err := tx.MoveAnimals(c, []string{sheep}, other[on], day); err != nil {
				return err
			}
			if err := look("after its writes", other[on], recorded+1); err != nil {
				wrong = append(wrong, err)
			}
			on, recorded = other[on], recorded+1
			return nil
		}
	}
	for i, err := range released(t, s, fns) {
		must(t, fmt.Sprintf("call %d", i), err)
	}
	for _, err := range wrong {
		t.Error(err)
	}
}
