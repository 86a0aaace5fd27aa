package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// approvedFixture adds one movement in each state an approved movement
// can come from, and returns their ids in this order: reported by the
// departure and awaiting review; accepted on review; reported by the
// destination (at 19:40); undone; rejected on review; goats to the
// abattoir.
func approvedFixture(t *testing.T, s store.Store) []int64 {
	t.Helper()
	m := func(state store.MovementState, by store.Side, from, to livestock.CPH, species livestock.Species, day int) store.Movement {
		return store.Movement{UserName: "keeper1", Species: species, Source: from, Destination: to,
			TransferDate: ymd(2026, 3, day), State: state, ReportedBy: by, AnimalCount: 2,
			Devices: []store.MovementDevice{
				{Identifier: tag(species, "UK0100001 00001"), RFID: rfid("0826010000100001"), PriorCPH: from, Outcome: "accepted"},
				{Identifier: tag(species, "UK0100001 00002"), RFID: rfid("0826010000100002"), PriorCPH: from, Outcome: "rejected"},
			}}
	}
	var ids []int64
	for _, mv := range []store.Movement{
		m(store.MovementPendingReview, store.SideDeparture, farmA, farmB, livestock.SpeciesSheep, 1),
		m(store.MovementAccepted, store.SideDeparture, farmA, farmB, livestock.SpeciesSheep, 2),
		m(store.MovementCompleted, store.SideDestination, market, farmB, livestock.SpeciesSheep, 3),
		m(store.MovementUndone, store.SideDeparture, farmA, farmB, livestock.SpeciesSheep, 4),
		m(store.MovementRejected, store.SideDeparture, farmA, farmB, livestock.SpeciesSheep, 5),
		m(store.MovementCompleted, store.SideDeparture, farmA, abattoir, livestock.SpeciesGoats, 6),
	} {
		at := mv.TransferDate
		if mv.Source == market {
			at = at.Add(19*time.Hour + 40*time.Minute) // the request names a time of day
		}
		ids = append(ids, addMovementAt(t, s, mv, at))
	}
	return ids
}

// onMoveFixture adds, after approvedFixture's, three movements their
// destination keeper reported from farm A to farm B, each needing the
// departure keeper's consent: accepted, awaiting it, and refused. Their
// ids follow approvedFixture's (indexes 6, 7 and 8 of approvedKeys).
func onMoveFixture(t *testing.T, s store.Store, ids []int64) []int64 {
	t.Helper()
	for i, state := range []store.MovementState{store.MovementAccepted, store.MovementPendingReview, store.MovementRejected} {
		mv := store.Movement{UserName: "keeper2", Species: livestock.SpeciesSheep, Source: farmA, Destination: farmB,
			TransferDate: ymd(2026, 3, 7+i), State: state, ReportedBy: store.SideDestination, AnimalCount: 1,
			Devices: []store.MovementDevice{{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00003"), PriorCPH: farmA, Outcome: "accepted"}}}
		ids = append(ids, addMovementAt(t, s, mv, mv.TransferDate))
	}
	return ids
}

// approvedKeys names each listed record "<movement index><D or d>",
// D for Departure and d for Destination, by the fixture's ids.
func approvedKeys(ids []int64, list []store.ApprovedMovement) []string {
	out := []string{}
	for _, a := range list {
		side := "D"
		if a.RecordedBy == store.SideDestination {
			side = "d"
		}
		for i, id := range ids {
			if id == a.ID {
				out = append(out, fmt.Sprintf("%d%s", i, side))
			}
		}
	}
	return out
}

func approved(t *testing.T, s store.Store, q store.ApprovedQuery) []store.ApprovedMovement {
	t.Helper()
	list, err := s.ApprovedMovements(ctx(t), q)
	must(t, "ApprovedMovements", err)
	return list
}

func testApprovedMovements(t *testing.T, s store.Store) {
	ids := approvedFixture(t, s)
	for _, tt := range []struct {
		name string
		q    store.ApprovedQuery
		want []string
	}{
		// Each end's record, in id order, Departure first; none of the
		// undone movement; the accepted one twice.
		{"all", store.ApprovedQuery{All: true}, []string{"0D", "1D", "1d", "2d", "4D", "5D"}},
		// A keeper sees the records of the ends they act for.
		{"departure keeper", store.ApprovedQuery{Holdings: []livestock.CPH{farmA}}, []string{"0D", "1D", "4D", "5D"}},
		{"destination keeper", store.ApprovedQuery{Holdings: []livestock.CPH{farmB}}, []string{"1d", "2d"}},
		{"both ends", store.ApprovedQuery{Holdings: []livestock.CPH{farmB, farmA}}, []string{"0D", "1D", "1d", "2d", "4D", "5D"}},
		{"the market's keeper", store.ApprovedQuery{Holdings: []livestock.CPH{market}}, []string{}},
		{"no holdings", store.ApprovedQuery{}, []string{}},
		// Paging: after a key, then offset, then limit.
		{"after a Departure record", store.ApprovedQuery{All: true, AfterKey: ids[1] * 2}, []string{"1d", "2d", "4D", "5D"}},
		{"offset and limit", store.ApprovedQuery{All: true, Offset: 1, Limit: 2}, []string{"1D", "1d"}},
		// Filters.
		{"recordedBy", store.ApprovedQuery{All: true, Filter: cmpf("recordedBy", odata.Eq, "Destination")}, []string{"1d", "2d"}},
		{"not recordedBy", store.ApprovedQuery{All: true, Filter: not(cmpf("recordedBy", odata.Eq, "Destination"))}, []string{"0D", "1D", "4D", "5D"}},
		{"transferDate range", store.ApprovedQuery{All: true, Filter: and(cmpf("transferDate", odata.Ge, at("2026-03-02T00:00:00Z")),
			cmpf("transferDate", odata.Le, at("2026-03-05T12:00:00Z")))}, []string{"1D", "1d", "2d", "4D"}},
		// transferDate is the date-time the transfer named, not its day.
		{"transferDate keeps the time", store.ApprovedQuery{All: true, Filter: and(cmpf("transferDate", odata.Gt, at("2026-03-03T19:00:00Z")),
			cmpf("transferDate", odata.Lt, at("2026-03-03T20:00:00Z")))}, []string{"2d"}},
		{"transferDate before the time", store.ApprovedQuery{All: true, Filter: and(cmpf("transferDate", odata.Ge, at("2026-03-03T00:00:00Z")),
			cmpf("transferDate", odata.Le, at("2026-03-03T19:00:00Z")))}, []string{}},
		{"speciesId", store.ApprovedQuery{All: true, Filter: cmpf("speciesId", odata.Eq, int64(2))}, []string{"5D"}},
		{"speciesId past 2^31", store.ApprovedQuery{All: true, Filter: cmpf("speciesId", odata.Gt, int64(1)<<31)}, []string{}},
		{"sourceHolding", store.ApprovedQuery{All: true, Filter: cmpf("sourceHolding", odata.Eq, market.String())}, []string{"2d"}},
		{"destinationHolding and keeper", store.ApprovedQuery{Holdings: []livestock.CPH{farmA},
			Filter: cmpf("destinationHolding", odata.Eq, abattoir.String())}, []string{"5D"}},
		{"id", store.ApprovedQuery{All: true, Filter: cmpf("id", odata.Eq, ids[1])}, []string{"1D", "1d"}},
	} {
		if diff := cmp.Diff(tt.want, approvedKeys(ids, approved(t, s, tt.q)), cmpOpts); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}

	// Both records of a movement carry its devices and batches; the key
	// orders them.
	both := approved(t, s, store.ApprovedQuery{All: true, Filter: cmpf("id", odata.Eq, ids[1])})
	if len(both) != 2 || len(both[0].Devices) != 2 || len(both[1].Devices) != 2 || both[0].Key()+1 != both[1].Key() {
		t.Errorf("the accepted movement's records = %+v", both)
	}
	if _, err := s.ApprovedMovements(ctx(t), store.ApprovedQuery{All: true, Filter: cmpf("movementDate", odata.Eq, at("2026-03-01T00:00:00Z"))}); err == nil {
		t.Error("a filter on a field approved movements lack was accepted")
	} else {
		wantKind(t, "filter on movementDate", err, livestock.KindInvalid)
	}

	// A move its destination reported is the departure keeper's record
	// too once they accept it (they "reviewed and accepted" it); awaiting
	// their consent, or refused it, it is no one's.
	ids = onMoveFixture(t, s, ids)
	for _, tt := range []struct {
		name string
		q    store.ApprovedQuery
		want []string
	}{
		{"on-moves, all", store.ApprovedQuery{All: true, Filter: cmpf("transferDate", odata.Ge, at("2026-03-07T00:00:00Z"))}, []string{"6D", "6d"}},
		{"on-moves, departure keeper", store.ApprovedQuery{Holdings: []livestock.CPH{farmA}, Filter: cmpf("transferDate", odata.Ge, at("2026-03-07T00:00:00Z"))}, []string{"6D"}},
		{"on-moves, destination keeper", store.ApprovedQuery{Holdings: []livestock.CPH{farmB}, Filter: cmpf("transferDate", odata.Ge, at("2026-03-07T00:00:00Z"))}, []string{"6d"}},
		{"on-moves, recordedBy Departure", store.ApprovedQuery{All: true, Filter: cmpf("recordedBy", odata.Eq, "Departure")}, []string{"0D", "1D", "4D", "5D", "6D"}},
	} {
		if diff := cmp.Diff(tt.want, approvedKeys(ids, approved(t, s, tt.q)), cmpOpts); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	if got, err := s.ApprovedMovement(ctx(t), ids[6], store.SideDeparture); err != nil || got.ID != ids[6] || len(got.Devices) != 1 {
		t.Errorf("ApprovedMovement(the accepted on-move, Departure) = %+v, %v", got, err)
	}
	for _, id := range ids[7:] {
		_, err := s.ApprovedMovement(ctx(t), id, store.SideDeparture)
		wantKind(t, fmt.Sprintf("ApprovedMovement(an on-move not accepted, %d)", id), err, livestock.KindNotFound)
	}
}

func testApprovedMovement(t *testing.T, s store.Store) {
	ids := approvedFixture(t, s)
	got, err := s.ApprovedMovement(ctx(t), ids[1], store.SideDestination)
	must(t, "ApprovedMovement", err)
	want := movement(t, s, ids[1])
	if diff := cmp.Diff(store.ApprovedMovement{Movement: want, RecordedBy: store.SideDestination, TransferAt: want.TransferDate}, got, cmpOpts); diff != "" {
		t.Errorf("ApprovedMovement (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		id   int64
		side store.Side
	}{{ids[0], store.SideDestination}, {ids[2], store.SideDeparture}, {ids[3], store.SideDeparture}, {ids[5] + 100, store.SideDeparture}} {
		_, err := s.ApprovedMovement(ctx(t), tt.id, tt.side)
		wantKind(t, fmt.Sprintf("ApprovedMovement(%d,%s)", tt.id, tt.side), err, livestock.KindNotFound)
	}
}

// testApprovedOrder: an Order sorts the records, the key breaking ties,
// and After (a record's Values) pages through them exactly, on every
// kind of field, a date among them.
func testApprovedOrder(t *testing.T, s store.Store) {
	ids := approvedFixture(t, s)
	withKey := func(order ...odata.OrderItem) []odata.OrderItem {
		return odata.Query{OrderBy: order}.Order(store.ApprovedKey...)
	}
	for _, tt := range []struct {
		name  string
		order []odata.OrderItem
		want  []string
	}{
		{"transferDate desc", withKey(odata.OrderItem{Field: "transferDate", Desc: true}), []string{"5D", "4D", "2d", "1D", "1d", "0D"}},
		{"recordedBy desc", withKey(odata.OrderItem{Field: "recordedBy", Desc: true}), []string{"1d", "2d", "0D", "1D", "4D", "5D"}},
		{"id desc", withKey(odata.OrderItem{Field: "id", Desc: true}), []string{"5D", "4D", "2d", "1D", "1d", "0D"}},
		{"speciesId desc, sourceHolding desc", withKey(odata.OrderItem{Field: "speciesId", Desc: true}, odata.OrderItem{Field: "sourceHolding", Desc: true}),
			[]string{"5D", "2d", "0D", "1D", "1d", "4D"}}, // goats first; the market (66/…) before farm A (01/…)
		{"destinationHolding, transferDate desc", withKey(odata.OrderItem{Field: "destinationHolding"}, odata.OrderItem{Field: "transferDate", Desc: true}),
			[]string{"4D", "2d", "1D", "1d", "0D", "5D"}}, // farm B (01/…) before the abattoir (44/…)
	} {
		whole := approvedKeys(ids, approved(t, s, store.ApprovedQuery{All: true, Order: tt.order}))
		if diff := cmp.Diff(tt.want, whole, cmpOpts); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		// Two at a time, each page after the last record of the one before.
		var walked []string
		var after []any
		for range 10 {
			page := approved(t, s, store.ApprovedQuery{All: true, Order: tt.order, After: after, Limit: 2})
			walked = append(walked, approvedKeys(ids, page)...)
			if len(page) < 2 {
				break
			}
			after = page[len(page)-1].Values(tt.order)
		}
		if diff := cmp.Diff(tt.want, walked, cmpOpts); diff != "" {
			t.Errorf("%s, paged by After (-want +got):\n%s", tt.name, diff)
		}
	}
	// A keeper's records, ordered, with a filter.
	got := approvedKeys(ids, approved(t, s, store.ApprovedQuery{Holdings: []livestock.CPH{farmA},
		Filter: cmpf("speciesId", odata.Eq, int64(1)), Order: withKey(odata.OrderItem{Field: "transferDate", Desc: true})}))
	if diff := cmp.Diff([]string{"4D", "1D", "0D"}, got, cmpOpts); diff != "" {
		t.Errorf("a keeper's sheep, latest first (-want +got):\n%s", diff)
	}
}

// testApprovedCount: CountApproved counts what the listing pages through.
func testApprovedCount(t *testing.T, s store.Store) {
	approvedFixture(t, s)
	for _, q := range []store.ApprovedQuery{
		{All: true},
		{Holdings: []livestock.CPH{farmA}},
		{Holdings: []livestock.CPH{farmB}, Filter: cmpf("recordedBy", odata.Eq, "Destination")},
		{All: true, Filter: cmpf("transferDate", odata.Ge, at("2026-03-03T00:00:00Z"))},
		{Holdings: []livestock.CPH{market}},
		{},
	} {
		n, err := s.CountApproved(ctx(t), q)
		must(t, "CountApproved", err)
		if want := len(approved(t, s, q)); n != int64(want) {
			t.Errorf("CountApproved(%+v) = %d, the listing has %d", q, n, want)
		}
	}
	if _, err := s.CountApproved(ctx(t), store.ApprovedQuery{All: true, Filter: cmpf("movementDate", odata.Eq, at("2026-03-01T00:00:00Z"))}); err == nil {
		t.Error("CountApproved took a filter on a field approved movements lack")
	}
}
