package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// traceRegistry is a hand-built registry for the tracing reads, with one
// movement in each state that matters: sheep1 and a batch go farmA →
// market → farmB (the review rejects sheep2 and two of the batch); farmB's
// movement on is undone; farmA's second movement awaits review; farmB's
// last is rejected as a whole. It returns the movements' ids, m[0] to m[4].
func traceRegistry(t *testing.T, s store.Store) []int64 {
	t.Helper()
	_, err := s.Seed(ctx(t), fixture())
	must(t, "Seed", err)
	a, b, mk, ab := farmA, farmB, market, abattoir
	devices := func(sp livestock.Species, outcome string, ids ...string) []store.MovementDevice {
		var out []store.MovementDevice
		for _, id := range ids {
			out = append(out, store.MovementDevice{Identifier: tag(sp, id), PriorCPH: a, PriorOnSince: ymd(2024, 3, 1), Outcome: outcome})
		}
		return out
	}
	const s1, s2 = "UK0100001 00001", "UK0100001 00002"
	m := []store.Movement{
		{UserName: "keeper1", Species: livestock.SpeciesSheep, Source: a, Destination: mk, TransferDate: ymd(2025, 1, 10),
			ArrivalDate: ymd(2025, 1, 10), State: store.MovementCompleted, AnimalCount: 7, Devices: devices(livestock.SpeciesSheep, "accepted", s1, s2),
			Batches: []store.MovementBatch{{BatchNumber: batch("UK010001"), AnimalTotal: 5, Accepted: 5}}},
		{UserName: "keeper2", Species: livestock.SpeciesSheep, Source: mk, Destination: b, TransferDate: ymd(2025, 1, 11),
			ArrivalDate: ymd(2025, 1, 12), State: store.MovementAccepted, AnimalCount: 7,
			Devices: append(devices(livestock.SpeciesSheep, "accepted", s1), devices(livestock.SpeciesSheep, "rejected", s2)...),
			Batches: []store.MovementBatch{{BatchNumber: batch("UK010001"), AnimalTotal: 5, Accepted: 3}}},
		{UserName: "keeper1", Species: livestock.SpeciesSheep, Source: b, Destination: ab, TransferDate: ymd(2025, 1, 20),
			ArrivalDate: ymd(2025, 1, 20), State: store.MovementUndone, AnimalCount: 1, Devices: devices(livestock.SpeciesSheep, "accepted", s1)},
		{UserName: "keeper1", Species: livestock.SpeciesSheep, Source: a, Destination: b, ReviewHolding: b, TransferDate: ymd(2025, 1, 15),
			State: store.MovementPendingReview, AnimalCount: 4, Batches: []store.MovementBatch{{BatchNumber: batch("UK010009"), AnimalTotal: 4}}},
		{UserName: "keeper1", Species: livestock.SpeciesCattle, Source: b, Destination: mk, TransferDate: ymd(2025, 2, 1),
			ArrivalDate: ymd(2025, 2, 2), State: store.MovementRejected, AnimalCount: 1, Devices: devices(livestock.SpeciesCattle, "rejected", "UK100002400017")},
	}
	ids := make([]int64, len(m))
	for i := range m {
		if i == 1 {
			m[i].ReviewID = ids[0] // any request will do for the reads: they carry the id
		}
		ids[i] = addMovement(t, s, m[i])
	}
	return ids
}

// testTraceWindows: the window reads return standing movements only
// (pending, completed, accepted), by the date they are keyed on, the
// arrival date being the review's (or the transfer date until one);
// HoldingNamed counts the same movements, at any date.
func testTraceWindows(t *testing.T, s store.Store) {
	m := traceRegistry(t, s)
	a, b, mk := farmA, farmB, market
	for _, tc := range []struct {
		name     string
		from     bool
		holdings []livestock.CPH
		since    time.Time
		until    time.Time
		want     []int64
	}{
		{"farmA out, January", true, []livestock.CPH{a}, ymd(2025, 1, 1), ymd(2025, 1, 31), []int64{m[0], m[3]}},
		{"farmA out from the 11th", true, []livestock.CPH{a}, ymd(2025, 1, 11), ymd(2025, 1, 31), []int64{m[3]}},
		{"bounds are inclusive", true, []livestock.CPH{a}, ymd(2025, 1, 10), ymd(2025, 1, 10), []int64{m[0]}},
		{"undone and rejected left out", true, []livestock.CPH{mk, b}, ymd(2025, 1, 1), ymd(2025, 2, 28), []int64{m[1]}},
		{"arrival by the review's date", false, []livestock.CPH{b}, ymd(2025, 1, 12), ymd(2025, 1, 12), []int64{m[1]}},
		{"not by its transfer date", false, []livestock.CPH{b}, ymd(2025, 1, 11), ymd(2025, 1, 11), nil},
		{"pending arrives on its transfer date", false, []livestock.CPH{b}, ymd(2025, 1, 13), ymd(2025, 1, 31), []int64{m[3]}},
		{"into the market", false, []livestock.CPH{mk, a}, ymd(2025, 1, 1), ymd(2025, 12, 31), []int64{m[0]}},
	} {
		var got []store.Movement
		var err error
		from, to := tc.since, tc.until
		if tc.from {
			got, err = s.MovementsFrom(ctx(t), tc.holdings, from, to)
		} else {
			got, err = s.MovementsTo(ctx(t), tc.holdings, from, to)
		}
		must(t, tc.name, err)
		if diff := cmp.Diff(tc.want, movementIDs(got), cmpOpts); diff != "" && !(len(tc.want) == 0 && len(got) == 0) {
			t.Errorf("%s: ids (-want +got):\n%s", tc.name, diff)
		}
	}
	// A holding is named by a standing movement at either end; the
	// abattoir only by an undone one, which does not count.
	for cph, want := range map[livestock.CPH]bool{a: true, b: true, mk: true, abattoir: false, livestock.MustCPH("78/001/0003"): false} {
		if named, err := s.HoldingNamed(ctx(t), cph); err != nil || named != want {
			t.Errorf("HoldingNamed(%s) = %v, %v; want %v", cph, named, err, want)
		}
	}
	got, err := s.MovementsFrom(ctx(t), []livestock.CPH{mk}, ymd(2025, 1, 1), ymd(2025, 1, 31))
	must(t, "MovementsFrom", err)
	if len(got) != 1 || got[0].Destination != b || !got[0].ArrivalDate.Equal(ymd(2025, 1, 12)) || got[0].State != store.MovementAccepted ||
		got[0].RequestID != m[1] || got[0].ReviewID != m[0] || got[0].Species != livestock.SpeciesSheep || got[0].AnimalCount != 7 || len(got[0].Devices) != 0 {
		t.Fatalf("market's departure = %+v, want m1 to farmB, arriving 2025-01-12, accepted by review m0, without parts", got)
	}
	if into, err := s.MovementsTo(ctx(t), []livestock.CPH{b}, ymd(2025, 1, 12), ymd(2025, 1, 12)); err != nil || len(into) != 1 || into[0].ReviewID != m[0] {
		t.Errorf("farmB's arrival on 2025-01-12 = %+v, %v; want m1, decided by review m0", into, err)
	}
	must(t, "FillMovements", s.FillMovements(ctx(t), got))
	if d, bt := got[0].Devices, got[0].Batches; len(d) != 2 || d[1].Outcome != "rejected" || len(bt) != 1 || bt[0].Accepted != 3 {
		t.Errorf("filled = %+v %+v, want two devices (the second rejected) and a batch of 3 accepted", d, bt)
	}
}

// testTraceAnimals: an animal's and a batch's movements come in every
// state, by id, with their parts; the register's reads give the animals on
// a holding now and the batch animals its completed and accepted
// movements brought and took by a date.
func testTraceAnimals(t *testing.T, s store.Store) {
	m := traceRegistry(t, s)
	got, err := s.AnimalMovements(ctx(t), []string{"UK0100001 00001", "UK0100001 00001"})
	must(t, "AnimalMovements", err)
	if diff := cmp.Diff([]int64{m[0], m[1], m[2]}, movementIDs(got), cmpOpts); diff != "" {
		t.Errorf("sheep1's movements (-want +got):\n%s", diff)
	}
	if len(got) == 3 && (got[2].State != store.MovementUndone || len(got[1].Devices) != 2) {
		t.Errorf("sheep1's movements = %+v, want the third undone and the second with both devices", got)
	}
	got, err = s.AnimalMovements(ctx(t), []string{"UK0100001 00002", "UK100002400017"})
	must(t, "AnimalMovements", err)
	if diff := cmp.Diff([]int64{m[0], m[1], m[4]}, movementIDs(got), cmpOpts); diff != "" {
		t.Errorf("sheep2's and the heifer's movements (-want +got):\n%s", diff)
	}
	got, err = s.BatchMovements(ctx(t), "UK010001")
	must(t, "BatchMovements", err)
	if diff := cmp.Diff([]int64{m[0], m[1]}, movementIDs(got), cmpOpts); diff != "" {
		t.Errorf("batch UK010001's movements (-want +got):\n%s", diff)
	}
	if got, err := s.BatchMovements(ctx(t), "UK0999999"); err != nil || len(got) != 0 {
		t.Errorf("BatchMovements(unknown) = %v, %v; want none, nil", got, err)
	}

	for _, r := range []float64{0, 0.5, 0.999} {
		if id, err := s.PickAnimal(ctx(t), r); err != nil || (id != "UK0100001 00001" && id != "UK0100001 00002" && id != "UK100002400017") {
			t.Errorf("PickAnimal(%v) = %q, %v; want an animal of a movement", r, id, err)
		}
	}
	on, err := s.AnimalsOn(ctx(t), farmA)
	must(t, "AnimalsOn", err)
	if len(on) != 1 || on[0].Identifier.String() != "UK0100001 00001" || on[0].CPH != farmA || !on[0].OnSince.Equal(ymd(2024, 3, 1)) {
		t.Errorf("AnimalsOn(farmA) = %+v, want the seeded sheep", on)
	}
	if on, err := s.AnimalsOn(ctx(t), market); err != nil || len(on) != 0 {
		t.Errorf("AnimalsOn(market) = %v, %v; want none", on, err)
	}
	byID, err := s.AnimalsByID(ctx(t), []string{"UK0100001 00001", "UK0999999 00001"})
	must(t, "AnimalsByID", err)
	if len(byID) != 1 || byID["UK0100001 00001"].Species != livestock.SpeciesSheep {
		t.Errorf("AnimalsByID = %+v, want the one registered sheep", byID)
	}

	for _, tc := range []struct {
		holding livestock.CPH
		day     time.Time
		want    map[livestock.Species]store.BatchFlow
	}{
		{market, ymd(2025, 1, 9), map[livestock.Species]store.BatchFlow{}},
		{market, ymd(2025, 1, 10), map[livestock.Species]store.BatchFlow{livestock.SpeciesSheep: {In: 5}}},
		// 3 left on the 11th: still there that day, gone the next.
		{market, ymd(2025, 1, 11), map[livestock.Species]store.BatchFlow{livestock.SpeciesSheep: {In: 5}}},
		{market, ymd(2025, 1, 12), map[livestock.Species]store.BatchFlow{livestock.SpeciesSheep: {In: 5, Out: 3}}},
		// The pending movement's batch of 4 has not arrived; the accepted
		// one's 3 have, on the review's date.
		{farmB, ymd(2025, 1, 11), map[livestock.Species]store.BatchFlow{}},
		{farmB, ymd(2025, 12, 31), map[livestock.Species]store.BatchFlow{livestock.SpeciesSheep: {In: 3}}},
		{farmA, ymd(2025, 12, 31), map[livestock.Species]store.BatchFlow{livestock.SpeciesSheep: {Out: 5}}},
	} {
		got, err := s.BatchBalance(ctx(t), tc.holding, tc.day)
		must(t, "BatchBalance", err)
		if diff := cmp.Diff(tc.want, got, cmpOpts); diff != "" {
			t.Errorf("BatchBalance(%s, %s) (-want +got):\n%s", tc.holding, tc.day.Format(time.DateOnly), diff)
		}
	}
}

// testTraceUnnamedDeer: deer known by freeze brand alone, whom no tag or
// batch line names, are counted in the balance with the batch animals
// they travelled with, at both ends.
func testTraceUnnamedDeer(t *testing.T, s store.Store) {
	_, err := s.Seed(ctx(t), fixture())
	must(t, "Seed", err)
	addMovement(t, s, store.Movement{UserName: "keeper1", Species: livestock.SpeciesDeer, Source: farmA, Destination: farmB,
		TransferDate: ymd(2025, 6, 1), ArrivalDate: ymd(2025, 6, 1), State: store.MovementCompleted, AnimalCount: 3,
		Batches: []store.MovementBatch{{AnimalTotal: 2, Accepted: 2}}})
	for _, tc := range []struct {
		holding livestock.CPH
		want    store.BatchFlow
	}{{farmB, store.BatchFlow{In: 3}}, {farmA, store.BatchFlow{Out: 3}}} {
		got, err := s.BatchBalance(ctx(t), tc.holding, ymd(2025, 6, 30))
		must(t, "BatchBalance", err)
		if got[livestock.SpeciesDeer] != tc.want {
			t.Errorf("BatchBalance(%s) deer = %+v, want %+v: the batch of two and the one by freeze brand", tc.holding, got[livestock.SpeciesDeer], tc.want)
		}
	}
}
