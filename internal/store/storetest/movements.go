package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// fullMovement sets every field of a movement but its ids.
func fullMovement() store.Movement {
	return store.Movement{
		UserName: "keeper1", Species: livestock.SpeciesSheep, Source: farmA, Destination: farmB,
		ReviewHolding: farmB, TransferDate: ymd(2026, 3, 10), State: store.MovementPendingReview,
		AnimalCount: 7, Flags: []string{"BTV", "TB4"}, Standstill: true, ReportedBy: store.SideDestination,
		Duplicates: []int64{41, 7},
		Devices: []store.MovementDevice{ // not in identifier order: they keep theirs
			{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00002"), RFID: rfid("0826010000100002"), PriorCPH: farmA, PriorOnSince: ymd(2024, 3, 1)},
			{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00001"), RFID: rfid("0826010000100001"), PriorCPH: farmA, PriorOnSince: ymd(2024, 3, 2)},
		},
		Batches: []store.MovementBatch{{BatchNumber: batch("UK010001"), AnimalTotal: 3}, {BatchNumber: batch("unknown"), AnimalTotal: 2}},
	}
}

// movement reads one movement, failing the test on an error.
func movement(t *testing.T, s store.Store, id int64) store.Movement {
	t.Helper()
	m, err := s.Movement(ctx(t), id)
	must(t, "Movement", err)
	return m
}

func testMovementRoundTrip(t *testing.T, s store.Store) {
	want := fullMovement()
	want.ID = addMovement(t, s, want)
	want.RequestID = want.ID // taken as the movement's own id
	got := movement(t, s, want.ID)
	takeBatchIDs(t, &want, got) // the store assigns each line its id
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Errorf("Movement (-want +got):\n%s", diff)
	}
	bare := store.Movement{UserName: "keeper2", Species: livestock.SpeciesGoats, Source: market, Destination: farmA,
		TransferDate: ymd(2026, 3, 11), ArrivalDate: ymd(2026, 3, 11), State: store.MovementCompleted}
	bare.ID = addMovement(t, s, bare)
	bare.RequestID = bare.ID
	if diff := cmp.Diff(bare, movement(t, s, bare.ID), cmpOpts); diff != "" {
		t.Errorf("Movement without devices (-want +got):\n%s", diff)
	}

	// A review: the state, the arrival and outcomes change, and devices
	// and batches are replaced as a whole.
	reviewID := addRequests(t, s, transfer("keeper1", farmB))[0]
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		m, err := tx.LockMovement(c, want.ID)
		if err != nil {
			return err
		}
		if diff := cmp.Diff(want, m, cmpOpts); diff != "" {
			t.Errorf("LockMovement (-want +got):\n%s", diff)
		}
		want.RequestID, want.ReviewID, want.State = reviewID, reviewID, store.MovementAccepted
		want.ArrivalDate, want.AnimalCount, want.Flags, want.Standstill = ymd(2026, 3, 12), 4, nil, false
		want.Devices = []store.MovementDevice{{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00001"), RFID: rfid("0826010000100001"),
			PriorCPH: farmA, PriorOnSince: ymd(2024, 3, 2), Outcome: "accepted"}}
		// The lines kept keep their ids, in their new places; the new
		// line gets a new one.
		kept := want.Batches
		want.Batches = []store.MovementBatch{{ID: kept[1].ID, BatchNumber: batch("unknown"), AnimalTotal: 2, Accepted: 1},
			{ID: kept[0].ID, BatchNumber: batch("UK010001"), AnimalTotal: 3, Accepted: 2}, {BatchNumber: batch("UK010009"), AnimalTotal: 1}}
		if err := tx.UpdateMovement(c, want); err != nil {
			return err
		}
		m, err = tx.LockMovement(c, want.ID)
		if err == nil && len(m.Batches) == 3 {
			if id := m.Batches[2].ID; id == 0 || id == kept[0].ID || id == kept[1].ID {
				t.Errorf("a line added by UpdateMovement has batch id %d, want a new one (the others: %d, %d)", id, kept[0].ID, kept[1].ID)
			}
			want.Batches[2].ID = m.Batches[2].ID
		}
		if diff := cmp.Diff(want, m, cmpOpts); err != nil || diff != "" {
			t.Errorf("tx.LockMovement after UpdateMovement: %v (-want +got):\n%s", err, diff)
		}
		return nil
	})
	if diff := cmp.Diff(want, movement(t, s, want.ID), cmpOpts); diff != "" {
		t.Errorf("Movement after UpdateMovement (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(bare, movement(t, s, bare.ID), cmpOpts); diff != "" {
		t.Errorf("the other movement after UpdateMovement (-want +got):\n%s", diff)
	}
}

func testPendingReviews(t *testing.T, s store.Store) {
	accepted := pending(farmB, livestock.SpeciesSheep, ymd(2026, 3, 1))
	accepted.State = store.MovementAccepted
	var want []store.Movement
	for _, m := range []store.Movement{
		fullMovement(), // awaits farm B's review of sheep
		pending(farmB, livestock.SpeciesGoats, ymd(2026, 3, 1)),
		pending(farmA, livestock.SpeciesSheep, ymd(2026, 3, 1)),
		accepted,
		pending(farmB, livestock.SpeciesSheep, ymd(2026, 3, 2)),
	} {
		m.ID = addMovement(t, s, m)
		m.RequestID = m.ID
		if m.ReviewHolding == farmB && m.Species == livestock.SpeciesSheep && m.State == store.MovementPendingReview {
			want = append(want, m)
		}
	}
	for i := range want {
		takeBatchIDs(t, &want[i], movement(t, s, want[i].ID))
	}
	q := store.ReviewQuery{Holding: farmB, Species: livestock.SpeciesSheep}
	if diff := cmp.Diff(want, reviews(t, s, q), cmpOpts); diff != "" {
		t.Errorf("PendingReviews (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		after         int64
		offset, limit int
		want          []store.Movement
	}{
		{0, 0, 1, want[:1]},
		{want[0].ID, 0, 1, want[1:]},
		{0, 1, 5, want[1:]},
		{want[1].ID, 0, 0, nil},
	} {
		q.AfterID, q.Offset, q.Limit = tt.after, tt.offset, tt.limit
		wantIDs(t, fmt.Sprintf("PendingReviews after %d, skip %d, top %d", tt.after, tt.offset, tt.limit),
			movementIDs(reviews(t, s, q)), movementIDs(tt.want))
	}
}

// reviews lists the movements of q, failing the test on an error.
func reviews(t *testing.T, s store.Store, q store.ReviewQuery) []store.Movement {
	t.Helper()
	list, err := s.PendingReviews(ctx(t), q)
	must(t, "PendingReviews", err)
	return list
}

// takeBatchIDs copies the batch ids the store gave got's lines to want's,
// after checking that each line has one, none shared.
func takeBatchIDs(t *testing.T, want *store.Movement, got store.Movement) {
	t.Helper()
	if len(got.Batches) != len(want.Batches) {
		return // the diff that follows shows it
	}
	seen := map[int64]bool{}
	for i, b := range got.Batches {
		if b.ID <= 0 || seen[b.ID] {
			t.Errorf("movement %d line %d has batch id %d, want a positive id of its own", got.ID, i, b.ID)
		}
		seen[b.ID] = true
		want.Batches[i].ID = b.ID
	}
}
