package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// fullRequest sets every field of a request.
func fullRequest() store.Request {
	return store.Request{
		Type: store.RequestTransfer, Status: store.StatusFailed, UserName: "keeper1",
		RequestDate: base, UpdatedDate: base.Add(time.Hour), MovementDate: ymd(2026, 11, 1),
		Species: livestock.SpeciesSheep, TrackingID: "T-1", CorrelationID: "3f1c0b9e",
		Holdings: []livestock.CPH{farmA, market}, // in CPH order, as they come back
		TargetID: 7, IsFullUndone: true, UndoSupported: true, Content: []byte(`{ "b": 2, "a": [1] }`),
		Errors: []livestock.FieldError{
			{Code: livestock.CodeDeviceUnknown, Message: "no animal wears this tag", Source: "/devices/0", Value: "UK0100001 00009"},
			{Code: livestock.CodeAnimalCount, Message: "animalCount differs"},
		},
		Warnings:    []livestock.FieldError{{Code: livestock.CodeStandstill, Message: "standstill", Source: "/sourceHolding"}},
		DocumentRef: "MD-2026-000001",
	}
}

// asStored is r as a store returns it, with id.
func asStored(r store.Request, id int64) store.Request {
	r.ID = id
	r.RequestDate, r.UpdatedDate = stored(r.RequestDate), stored(r.UpdatedDate)
	return r
}

func testRequestRoundTrip(t *testing.T, s store.Store) {
	c := ctx(t)
	full, bare := fullRequest(), store.Request{Type: store.RequestUndo, Status: store.StatusPending,
		UserName: "keeper2", RequestDate: base, UpdatedDate: base, CorrelationID: "c"}
	in := full
	in.Holdings = []livestock.CPH{market, farmA, market} // out of order, repeated
	got := addRequests(t, s, in, bare)
	want := []store.Request{asStored(full, got[0]), asStored(bare, got[1])}
	for i, id := range got {
		r, err := s.Request(c, id)
		must(t, "Request", err)
		if diff := cmp.Diff(want[i], r, cmpOpts); diff != "" {
			t.Errorf("Request(%d) (-want +got):\n%s", id, diff)
		}
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for i, id := range got {
			if r, err := tx.Request(c, id); err != nil || !cmp.Equal(want[i], r) {
				t.Errorf("tx.Request(%d) = %+v, %v", id, r, err)
			}
			if r, err := tx.LockRequest(c, id); err != nil || !cmp.Equal(want[i], r) {
				t.Errorf("tx.LockRequest(%d) = %+v, %v", id, r, err)
			}
		}
		return nil
	})

	// UpdateRequest writes only what a job changes.
	upd := want[0]
	upd.Status, upd.UpdatedDate, upd.Errors = store.StatusSuccess, stored(base.Add(2*time.Hour)), nil
	upd.Warnings = append(upd.Warnings, livestock.FieldError{Code: livestock.CodeLateReport, Message: "late"})
	upd.IsFullUndone, upd.UndoSupported, upd.DocumentRef = false, false, "MD-2"
	upd.Holdings = []livestock.CPH{farmB}
	upd.Species = livestock.SpeciesGoats // a review's job learns it from the movement
	changed := upd
	changed.UserName, changed.TrackingID, changed.Content = "keeper2", "T-9", []byte(`{}`)
	inTx(t, s, func(c context.Context, tx store.Tx) error { return tx.UpdateRequest(c, changed) })
	r, err := s.Request(c, upd.ID)
	must(t, "Request after UpdateRequest", err)
	if diff := cmp.Diff(upd, r, cmpOpts); diff != "" {
		t.Errorf("Request after UpdateRequest (-want +got):\n%s", diff)
	}
	// Its new holding's rows copy its type and movement date, which a
	// month's listing by holding reads.
	month := and(cmpf("movementDate", odata.Ge, ymd(2026, 11, 1)), cmpf("movementDate", odata.Lt, ymd(2026, 12, 1)))
	byFarmB := filtered(tracing(farmB), month)
	if list := requests(t, s, byFarmB); !slices.ContainsFunc(list, func(r store.Request) bool { return r.ID == upd.ID }) {
		t.Errorf("farm B's November after UpdateRequest = %d requests, without %d", len(list), upd.ID)
	}
	err = s.InTx(c, func(c context.Context, tx store.Tx) error {
		return tx.UpdateRequest(c, store.Request{ID: 999_999, UpdatedDate: base})
	})
	wantKind(t, "UpdateRequest of no request", err, livestock.KindNotFound)

	// A request's row keeps its holdings joined by spaces: one that would
	// not read back as written is refused, and nothing is stored.
	for _, bad := range []livestock.CPH{{}} {
		r := transfer("keeper1", farmA, bad)
		err = s.InTx(c, func(c context.Context, tx store.Tx) error { _, err := tx.InsertRequest(c, r); return err })
		wantKind(t, fmt.Sprintf("InsertRequest with holding %q", bad), err, livestock.KindInvalid)
		err = s.InTx(c, func(c context.Context, tx store.Tx) error {
			changed.Holdings = []livestock.CPH{bad}
			return tx.UpdateRequest(c, changed)
		})
		wantKind(t, fmt.Sprintf("UpdateRequest with holding %q", bad), err, livestock.KindInvalid)
	}
	if r, err := s.Request(c, upd.ID); err != nil || !cmp.Equal(upd, r) {
		t.Errorf("Request after refused updates = %+v, %v; want it unchanged", r, err)
	}
}

// testTrackingConflict checks that a tracking id is unique per user and
// request type, and that the transaction stays usable after the conflict.
func testTrackingConflict(t *testing.T, s store.Store) {
	c := ctx(t)
	tracked := func(user, id string) store.Request {
		r := transfer(user)
		r.TrackingID = id
		return r
	}
	first := addRequests(t, s, tracked("keeper1", "T-1"))[0]
	var again, after int64
	inTx(t, s, func(c context.Context, tx store.Tx) (err error) {
		again, err = tx.InsertRequest(c, tracked("keeper1", "T-1"))
		wantKind(t, "InsertRequest with a tracking id used before", err, livestock.KindConflict)
		after, err = tx.InsertRequest(c, tracked("keeper1", "T-2"))
		return err
	})
	if again != 0 {
		t.Errorf("InsertRequest in conflict returned id %d", again)
	}
	if r, err := s.Request(c, after); err != nil || r.TrackingID != "T-2" {
		t.Errorf("the request after the conflict = %+v, %v; want it committed", r, err)
	}
	// Another user may use the same id, and the same user for another
	// type of request; requests without one never clash.
	correction := tracked("keeper1", "T-1")
	correction.Type = store.RequestCorrection
	addRequests(t, s, tracked("keeper2", "T-1"), correction, transfer("keeper1"), transfer("keeper1"))
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		_, err := tx.InsertRequest(c, correction)
		wantKind(t, "InsertRequest of a correction with a tracking id used before for one", err, livestock.KindConflict)
		return nil
	})
	if r, err := s.Request(c, first); err != nil || r.UserName != "keeper1" {
		t.Errorf("the first request = %+v, %v", r, err)
	}
}

// testMovementNotFound asks an empty store for one of every movement record.
func testMovementNotFound(t *testing.T, s store.Store) {
	c := ctx(t)
	nf := livestock.KindNotFound
	_, err := s.Request(c, 1)
	wantKind(t, "Request", err, nf)
	_, err = s.Movement(c, 1)
	wantKind(t, "Movement", err, nf)
	_, err = s.Animal(c, "UK0100001 00001")
	wantKind(t, "Animal", err, nf)
	_, err = s.Flock(c, livestock.MustFlockMark("100001"))
	wantKind(t, "Flock", err, nf)
	_, err = s.HoldingByMHS(c, mustMHS("0036"))
	wantKind(t, "HoldingByMHS", err, nf)
	_, err = s.Reply(c, "keeper1", "c")
	wantKind(t, "Reply", err, nf)
	for name, fn := range map[string]func(context.Context, store.Tx) error{
		"tx.Request":      func(c context.Context, tx store.Tx) error { _, err := tx.Request(c, 1); return err },
		"tx.LockRequest":  func(c context.Context, tx store.Tx) error { _, err := tx.LockRequest(c, 1); return err },
		"tx.LockMovement": func(c context.Context, tx store.Tx) error { _, err := tx.LockMovement(c, 1); return err },
		"tx.Holding":      func(c context.Context, tx store.Tx) error { _, err := tx.Holding(c, farmA); return err },
		"tx.UpdateMovement": func(c context.Context, tx store.Tx) error {
			return tx.UpdateMovement(c, store.Movement{ID: 1, TransferDate: ymd(2026, 1, 1)})
		},
		"tx.MoveAnimals": func(c context.Context, tx store.Tx) error {
			return tx.MoveAnimals(c, []string{"UK0100001 00001"}, farmA, ymd(2026, 1, 1))
		},
	} {
		wantKind(t, name, s.InTx(c, fn), nf)
	}
}
