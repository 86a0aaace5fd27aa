package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// testReviewFilter checks that movementDate compares the date-time the
// movement's request named (here 00:00Z of each transfer date, and 19:40Z
// of the fifth's): the movement keeps only its day.
func testReviewFilter(t *testing.T, s store.Store) {
	var got []int64
	for _, d := range []time.Time{ymd(2026, 10, 31), ymd(2026, 11, 1), ymd(2026, 11, 30), ymd(2026, 12, 1)} {
		got = append(got, addMovement(t, s, pending(farmB, livestock.SpeciesSheep, d)))
	}
	evening := time.Date(2026, 11, 15, 19, 40, 0, 0, time.UTC)
	got = append(got, addMovementAt(t, s, pending(farmB, livestock.SpeciesSheep, ymd(2026, 11, 15)), evening))
	for _, tt := range []struct {
		name   string
		filter odata.Expr
		want   []int
	}{
		{"November, as the document writes it", and(cmpf("movementDate", odata.Ge, at("2026-11-01T00:00:00Z")),
			cmpf("movementDate", odata.Le, at("2026-11-30T23:59:59Z"))), []int{1, 2, 4}},
		{"ge midnight", cmpf("movementDate", odata.Ge, at("2026-11-30T00:00:00Z")), []int{2, 3}},
		{"ge a second past", cmpf("movementDate", odata.Ge, at("2026-11-01T00:00:01Z")), []int{2, 3, 4}},
		{"gt midnight", cmpf("movementDate", odata.Gt, at("2026-11-01T00:00:00Z")), []int{2, 3, 4}},
		{"gt noon", cmpf("movementDate", odata.Gt, at("2026-11-01T12:00:00Z")), []int{2, 3, 4}},
		{"lt midnight", cmpf("movementDate", odata.Lt, at("2026-11-01T00:00:00Z")), []int{0}},
		{"lt noon", cmpf("movementDate", odata.Lt, at("2026-11-01T12:00:00Z")), []int{0, 1}},
		{"le a second before", cmpf("movementDate", odata.Le, at("2026-10-31T23:59:59Z")), []int{0}},
		{"le in another zone", cmpf("movementDate", odata.Le, at("2026-11-01T01:00:00+02:00")), []int{0}},
		{"eq midnight", cmpf("movementDate", odata.Eq, at("2026-11-30T00:00:00Z")), []int{2}},
		{"eq noon", cmpf("movementDate", odata.Eq, at("2026-11-30T12:00:00Z")), nil},
		{"ne midnight", cmpf("movementDate", odata.Ne, at("2026-11-30T00:00:00Z")), []int{0, 1, 3, 4}},
		{"ne noon", cmpf("movementDate", odata.Ne, at("2026-11-30T12:00:00Z")), []int{0, 1, 2, 3, 4}},
		{"not eq noon", not(cmpf("movementDate", odata.Eq, at("2026-11-30T12:00:00Z"))), []int{0, 1, 2, 3, 4}},
		{"ge noon of an evening move's day", cmpf("movementDate", odata.Ge, at("2026-11-15T12:00:00Z")), []int{2, 3, 4}},
		{"le midnight of an evening move's day", cmpf("movementDate", odata.Le, at("2026-11-15T00:00:00Z")), []int{0, 1}},
		{"eq an evening move's time", cmpf("movementDate", odata.Eq, at("2026-11-15T19:40:00Z")), []int{4}},
		{"requestId", or(cmpf("requestId", odata.Eq, got[0]), cmpf("requestId", odata.Gt, got[2])), []int{0, 3, 4}},
	} {
		q := store.ReviewQuery{Holding: farmB, Species: livestock.SpeciesSheep, Filter: tt.filter}
		wantIDs(t, tt.name, movementIDs(reviews(t, s, q)), pick(got, tt.want...))
	}
}

func testInTransit(t *testing.T, s store.Store) {
	withTags := func(state store.MovementState, tags ...string) store.Movement {
		m := pending(farmB, livestock.SpeciesSheep, ymd(2026, 3, 1))
		m.State = state
		for _, id := range tags {
			m.Devices = append(m.Devices, store.MovementDevice{Identifier: tag(livestock.SpeciesSheep, id), PriorCPH: farmA})
		}
		return m
	}
	// The tags of five sheep, A to E, and of 600 more.
	const tA, tB, tC, tD, tE = "UK0100001 00001", "UK0100001 00002", "UK0100001 00003", "UK0100001 00004", "UK0100001 00005"
	var many []string
	for i := range 600 {
		many = append(many, fmt.Sprintf("UK0100002 %05d", i))
	}
	a := addMovement(t, s, withTags(store.MovementPendingReview, tA, tB))
	addMovement(t, s, withTags(store.MovementAccepted, tC))
	b := addMovement(t, s, withTags(store.MovementPendingReview, many...))
	consent := withTags(store.MovementPendingReview, tE) // awaits its source's consent: holds nothing
	consent.ReviewHolding = consent.Source
	addMovement(t, s, consent)
	want := map[string]int64{tA: a}
	asked := []string{tA, tC, tD, tE}
	for i, tag := range many {
		if i%2 == 0 {
			want[tag] = b
			asked = append(asked, tag)
		}
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		got, err := tx.InTransit(c, asked)
		if diff := cmp.Diff(want, got, cmpOpts); err != nil || diff != "" {
			t.Errorf("InTransit: %v (-want +got):\n%s", err, diff)
		}
		if got, err := tx.InTransit(c, nil); err != nil || len(got) != 0 {
			t.Errorf("InTransit(nil) = %v, %v; want none", got, err)
		}
		return nil
	})
}

func testArrivalsOn(t *testing.T, s store.Store) {
	arrival := func(state store.MovementState, transfer, arrived int, dest livestock.CPH) store.Movement {
		m := pending(dest, livestock.SpeciesSheep, ymd(2026, 3, transfer))
		m.State, m.Flags, m.Source = state, []string{fmt.Sprint(transfer)}, market
		if arrived != 0 {
			m.ArrivalDate = ymd(2026, 3, arrived)
		}
		return m
	}
	b := farmB
	ms := []store.Movement{
		arrival(store.MovementPendingReview, 10, 0, b), // 0: awaiting review, has brought nothing yet
		arrival(store.MovementAccepted, 14, 15, b),     // 1
		arrival(store.MovementCompleted, 12, 12, b),    // 2
		arrival(store.MovementRejected, 12, 12, b),     // 3: never arrived
		arrival(store.MovementUndone, 12, 12, b),       // 4: undone
		arrival(store.MovementCompleted, 12, 12, abattoir),
		arrival(store.MovementCompleted, 9, 9, b),   // 6: the day before
		arrival(store.MovementCompleted, 16, 16, b), // 7: the day after
	}
	got := make([]store.Arrival, len(ms))
	for i, m := range ms {
		id := addMovement(t, s, m)
		got[i] = store.Arrival{MovementID: id, Date: m.TransferDate, Species: m.Species, Flags: m.Flags, Source: m.Source}
		if !m.ArrivalDate.IsZero() {
			got[i].Date = m.ArrivalDate
		}
	}
	for _, tt := range []struct {
		from, to int
		want     []int
	}{
		{10, 15, []int{2, 1}}, // in date order
		{11, 14, []int{2}},
		{15, 15, []int{1}},
		{10, 10, nil},
		{17, 31, nil},
	} {
		var want []store.Arrival
		for _, i := range tt.want {
			want = append(want, got[i])
		}
		inTx(t, s, func(c context.Context, tx store.Tx) error {
			list, err := tx.ArrivalsOn(c, b, ymd(2026, 3, tt.from), ymd(2026, 3, tt.to))
			if diff := cmp.Diff(want, list, cmpOpts); err != nil || diff != "" {
				t.Errorf("ArrivalsOn(%d…%d March): %v (-want +got):\n%s", tt.from, tt.to, err, diff)
			}
			return nil
		})
	}
}

// testMovedAfter: a movement made after another (a greater id, or, for a
// tag, an older one corrected since) that moves or holds one of its
// animals is found, by tag or by a batch leaving the holding named; an
// undone, rejected or earlier movement, one awaiting its source's
// consent, an accepted one whose review (by either end) rejected the tag
// or the batch line, and a batch leaving elsewhere are not.
func testMovedAfter(t *testing.T, s store.Store) {
	moveAs := func(state store.MovementState, outcome string, reviewer, from, to livestock.CPH, batchNumber string, tags ...string) int64 {
		m := pending(to, livestock.SpeciesSheep, ymd(2026, 4, 1))
		m.State, m.Source, m.Batches = state, from, nil
		if state != store.MovementPendingReview {
			m.ReviewHolding = reviewer
		}
		if batchNumber != "" {
			m.Batches = []store.MovementBatch{{BatchNumber: batch(batchNumber), AnimalTotal: 3}}
			if outcome == "accepted" {
				m.Batches[0].Accepted = 3
			}
		}
		for _, id := range tags {
			m.Devices = append(m.Devices, store.MovementDevice{Identifier: tag(livestock.SpeciesSheep, id), PriorCPH: from, Outcome: outcome})
		}
		return addMovement(t, s, m)
	}
	move := func(state store.MovementState, from, to livestock.CPH, batchNumber string, tags ...string) int64 {
		outcome := ""
		if state == store.MovementCompleted || state == store.MovementAccepted {
			outcome = "accepted"
		}
		return moveAs(state, outcome, livestock.CPH{}, from, to, batchNumber, tags...)
	}
	const tA, tB, tC, tD, tE = "UK0100003 00001", "UK0100003 00002", "UK0100003 00003", "UK0100003 00004", "UK0100003 00005"
	var many []string
	for i := range 1200 {
		many = append(many, fmt.Sprintf("UK0100004 %05d", i))
	}
	earlier := move(store.MovementCompleted, farmB, farmA, "", tD)
	older := move(store.MovementCompleted, farmB, market, "") // corrected after first to take tA onward
	first := move(store.MovementCompleted, farmA, farmB, "UK010003", append([]string{tA, tB, tC, tD, tE}, many...)...)
	move(store.MovementUndone, farmB, market, "UK010003", tB)
	move(store.MovementRejected, farmB, market, "", tC)
	moveAs(store.MovementAccepted, "rejected", farmB, farmB, market, "UK010003", tC) // its source consented, but not to tC nor the batch line
	consent := pending(farmB, livestock.SpeciesSheep, ymd(2026, 4, 2))               // awaits its source's consent: holds nothing
	consent.Source, consent.ReviewHolding, consent.Batches = farmB, farmB, nil
	consent.Devices = []store.MovementDevice{{Identifier: tag(livestock.SpeciesSheep, tE), PriorCPH: farmB}}
	addMovement(t, s, consent)
	move(store.MovementCompleted, farmA, market, "UK010003") // the flock's batch, but from elsewhere
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for _, tc := range []struct {
			name    string
			tags    []string
			batches []string
		}{
			{"undone, rejected, awaiting consent, earlier", []string{tB, tC, tE, tD}, nil},
			{"a batch leaving elsewhere, or rejected", nil, []string{"UK010003"}},
			{"none asked", nil, nil},
		} {
			if what, id, found, err := tx.MovedAfter(c, first, tc.tags, farmB, tc.batches); err != nil || found {
				t.Errorf("MovedAfter, %s = %q %d %v %v; want none", tc.name, what, id, found, err)
			}
		}
		if what, id, found, err := tx.MovedAfter(c, earlier, []string{tD}, farmA, nil); err != nil || !found || what != tD || id != first {
			t.Errorf("MovedAfter(the earlier move of %s) = %q %d %v %v; want request %d", tD, what, id, found, err, first)
		}
		return nil
	})
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		m, err := tx.LockMovement(c, older)
		if err != nil {
			return err
		}
		if m.RequestID, err = tx.InsertRequest(c, transfer("keeper1", farmB, market)); err != nil {
			return err
		}
		m.Devices = []store.MovementDevice{{Identifier: tag(livestock.SpeciesSheep, tA), PriorCPH: farmB}}
		if err := tx.UpdateMovement(c, m); err != nil {
			return err
		}
		if what, id, found, err := tx.MovedAfter(c, first, []string{tA}, farmB, nil); err != nil || !found || what != tA || id != m.RequestID {
			t.Errorf("MovedAfter(a tag an older movement took in a correction since) = %q %d %v %v; want request %d", what, id, found, err, m.RequestID)
		}
		m.Devices = nil
		return tx.UpdateMovement(c, m)
	})
	moveAs(store.MovementAccepted, "rejected", market, farmB, market, "", tB) // its destination accepted, but not tB
	later := move(store.MovementPendingReview, farmB, market, "", many[1100])
	onward := move(store.MovementAccepted, farmB, market, "UK010003")
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		asked := append([]string{tB, tC, tE}, many...)
		if what, id, found, err := tx.MovedAfter(c, first, asked, farmB, nil); err != nil || !found || what != many[1100] || id != later {
			t.Errorf("MovedAfter(a tag awaiting review onward, among %d) = %q %d %v %v; want %q in %d", len(asked), what, id, found, err, many[1100], later)
		}
		if what, id, found, err := tx.MovedAfter(c, first, nil, farmB, []string{"UK010003"}); err != nil || !found || what != "UK010003" || id != onward {
			t.Errorf("MovedAfter(the batch accepted onward) = %q %d %v %v; want %d", what, id, found, err, onward)
		}
		return nil
	})
}
