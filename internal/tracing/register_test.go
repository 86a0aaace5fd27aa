package tracing_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
	"github.com/drover-registry/drover/internal/tracing"
)

func residents(rs []tracing.Resident) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Animal.Identifier.String())
	}
	return out
}

// TestRegisterKnown: a holding's register on a date from the known
// registry: who arrived, who left, who a review rejected (and so never
// left), and the batch animals its movements brought and took.
func TestRegisterKnown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		known(t, s)
		svc := tracing.New(s, nil)
		for _, tc := range []struct {
			holding livestock.CPH
			day     time.Time
			animals []string
			batches map[livestock.Species]int
		}{
			{F2, ymd(3, 5), []string{c2, c3}, map[livestock.Species]int{}},
			{F2, ymd(3, 7), []string{c1, c2, c3}, map[livestock.Species]int{livestock.SpeciesSheep: 5}},
			{F2, ymd(3, 12), []string{c1, c2, c3}, map[livestock.Species]int{livestock.SpeciesSheep: 5}}, // c3 left that day
			{F2, ymd(3, 13), []string{c1, c2}, map[livestock.Species]int{livestock.SpeciesSheep: 5}},
			{M, ymd(3, 5), []string{c1}, map[livestock.Species]int{livestock.SpeciesSheep: 5}},
			// c1 and the batch left on the 6th: both still there that day.
			{M, ymd(3, 6), []string{c1}, map[livestock.Species]int{livestock.SpeciesSheep: 5}},
			{M, ymd(3, 7), nil, map[livestock.Species]int{}},
			{F1, ymd(3, 5), []string{c1, c4}, map[livestock.Species]int{}},
			{F1, ymd(3, 6), []string{c4}, map[livestock.Species]int{}},
			{F4, ymd(3, 13), []string{c3}, map[livestock.Species]int{}},
		} {
			reg, err := svc.RegisterOn(context.Background(), tc.holding, tc.day)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.animals, residents(reg.Animals)); diff != "" {
				t.Errorf("%s on %s: animals (-want +got):\n%s", tc.holding, tc.day.Format(time.DateOnly), diff)
			}
			if diff := cmp.Diff(tc.batches, reg.Batches); diff != "" {
				t.Errorf("%s on %s: batches (-want +got):\n%s", tc.holding, tc.day.Format(time.DateOnly), diff)
			}
		}
	})
}

// TestHistoryAndContacts: an animal's stays and movements, a batch's
// movements, and the 24-hour standard's second question: the animals that
// lived beside c1 in March, and where they are now.
func TestHistoryAndContacts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := known(t, s)
		svc := tracing.New(s, nil)
		h, err := svc.AnimalHistory(context.Background(), c1)
		if err != nil {
			t.Fatal(err)
		}
		long := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		want := []tracing.Stay{{Holding: F1, From: long, To: ymd(3, 5)}, {Holding: M, From: ymd(3, 5), To: ymd(3, 6), Movement: ids[1]},
			{Holding: F2, From: ymd(3, 6), Movement: ids[2]}}
		if diff := cmp.Diff(want, h.Stays); diff != "" {
			t.Errorf("c1's stays (-want +got):\n%s", diff)
		}
		if len(h.Movements) != 2 || h.Movements[0].ID != ids[1] {
			t.Errorf("c1's movements = %v, want 1 and 2", h.Movements)
		}
		seen, ok := h.Seen(func(cph livestock.CPH) bool { return cph == M })
		if !ok || len(seen.Stays) != 1 || len(seen.Movements) != 2 {
			t.Errorf("the market's keeper sees %+v, want its one stay and both movements", seen)
		}
		if _, ok := h.Seen(func(cph livestock.CPH) bool { return cph == A }); ok {
			t.Error("the abattoir's keeper sees c1, which never went there")
		}
		b, err := svc.AnimalHistory(context.Background(), "UK010001")
		if err != nil || b.Batch != "UK010001" || len(b.Movements) != 2 {
			t.Errorf("batch history = %+v, %v; want movements 1 and 2", b, err)
		}
		// Named as a movement may name it: compact, or by its RFID.
		for _, form := range []string{"UK010000100001", "0826010000100001"} {
			if f, err := svc.AnimalHistory(context.Background(), form); err != nil || f.Animal.Identifier.String() != c1 || len(f.Stays) != 3 {
				t.Errorf("history of %s = %+v, %v; want c1's", form, f, err)
			}
		}
		if _, err := svc.AnimalHistory(context.Background(), "nobody"); err == nil {
			t.Error("history of nothing: no error")
		}

		res, err := svc.Trace(context.Background(), tracing.Query{Animal: c1, From: ymd(3, 1), To: ymd(3, 30), Direction: tracing.Both, Hops: 0})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range res.Animals {
			got = append(got, c.Animal.Identifier.String()+" met on "+c.Stay.Holding.String()+" "+c.Stay.From.Format("01-02")+
				".."+c.Stay.To.Format("01-02")+", now on "+c.Animal.CPH.String())
		}
		// The days shared: c1's stay and the other's, within the window.
		wantContacts := []string{c4 + " met on " + F1.String() + " 03-01..03-05, now on " + F1.String(),
			c2 + " met on " + F2.String() + " 03-06..03-30, now on " + F2.String(),
			c3 + " met on " + F2.String() + " 03-06..03-12, now on " + F4.String()}
		if diff := cmp.Diff(wantContacts, got); diff != "" {
			t.Errorf("c1's contacts (-want +got):\n%s", diff)
		}
		if len(res.Origins) != 3 || len(res.Holdings) != 0 {
			t.Errorf("origins %v, holdings %v: want c1's three stays and no hop", res.Origins, res.Holdings)
		}
	})
}

// TestLeftAndBackTheSameDay: an animal that leaves a holding and comes
// back the same day is on that day's register once, from its first
// arrival, and a trace of it lists each animal it shared the holding with
// once.
func TestLeftAndBackTheSameDay(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		r := registry{t, s}
		long := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		r.seed([]livestock.CPH{F1, F2}, map[string]store.Animal{c1: {CPH: F1, OnSince: ymd(3, 5)}, c4: {CPH: F1, OnSince: long}})
		r.move(store.Movement{Source: F1, Destination: F2, TransferDate: ymd(3, 5), ArrivalDate: ymd(3, 5), State: store.MovementCompleted,
			AnimalCount: 1, Devices: []store.MovementDevice{dev(c1, F1, long, "accepted")}})
		r.move(store.Movement{Source: F2, Destination: F1, TransferDate: ymd(3, 5), ArrivalDate: ymd(3, 5), State: store.MovementCompleted,
			AnimalCount: 1, Devices: []store.MovementDevice{dev(c1, F2, ymd(3, 5), "accepted")}})
		svc := tracing.New(s, nil)
		reg, err := svc.RegisterOn(context.Background(), F1, ymd(3, 5))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{c1, c4}, residents(reg.Animals)); diff != "" {
			t.Errorf("F1 on the day c1 left and came back (-want +got):\n%s", diff)
		}
		for _, a := range reg.Animals {
			if a.Animal.Identifier.String() == c1 && (!a.Stay.From.Equal(long) || !a.Stay.To.IsZero()) {
				t.Errorf("c1's stay on F1 = %s to %s, want from %s, still there", a.Stay.From, a.Stay.To, long.Format(time.DateOnly))
			}
		}
		res, err := svc.Trace(context.Background(), tracing.Query{Animal: c1, From: ymd(3, 5), To: ymd(3, 5), Direction: tracing.Forward, Hops: 1})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, c := range res.Animals {
			seen[c.Animal.Identifier.String()+" on "+c.Stay.Holding.String()]++
		}
		if want := map[string]int{c4 + " on " + F1.String(): 1}; !cmp.Equal(want, seen) {
			t.Errorf("c1's contacts on the day = %v, want %v", seen, want)
		}
	})
}
