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

// Holdings of the known registry: F1 is infected, M a market, A an abattoir.
var (
	F1 = livestock.MustCPH("01/001/0001")
	M  = livestock.MustCPH("02/002/0002")
	F2 = livestock.MustCPH("03/003/0003")
	F3 = livestock.MustCPH("04/004/0004")
	F4 = livestock.MustCPH("05/005/0005")
	A  = livestock.MustCPH("06/006/0006")
)

// known builds the registry whose answers the tests below know. Sheep c1
// goes F1 → M → F2 in March 2025; c3 goes on to F4 (c2, rejected, stays);
// the rest exercise time order, undone, rejected and pending movements.
// It returns the movements' ids by number.
func known(t *testing.T, s store.Store) map[int]int64 {
	r := registry{t, s}
	long := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	r.seed([]livestock.CPH{F1, M, F2, F3, F4, A}, map[string]store.Animal{
		c1: {CPH: F2, OnSince: ymd(3, 6)}, c2: {CPH: F2, OnSince: long},
		c3: {CPH: F4, OnSince: ymd(3, 13)}, c4: {CPH: F1, OnSince: long},
	})
	ids := map[int]int64{}
	ids[1] = r.move(store.Movement{Source: F1, Destination: M, TransferDate: ymd(3, 5), ArrivalDate: ymd(3, 5), State: store.MovementCompleted,
		AnimalCount: 6, Devices: []store.MovementDevice{dev(c1, F1, long, "accepted")}, Batches: batch(5, 5)})
	ids[2] = r.move(store.Movement{Source: M, Destination: F2, TransferDate: ymd(3, 6), ArrivalDate: ymd(3, 6), State: store.MovementCompleted,
		AnimalCount: 6, Devices: []store.MovementDevice{dev(c1, M, ymd(3, 5), "accepted")}, Batches: batch(5, 5)})
	// Left M before the risk reached it.
	ids[3] = r.move(store.Movement{Source: M, Destination: F3, TransferDate: ymd(3, 4), ArrivalDate: ymd(3, 4), State: store.MovementCompleted, AnimalCount: 1})
	ids[4] = r.move(store.Movement{Source: F2, Destination: A, TransferDate: ymd(3, 10), ArrivalDate: ymd(3, 10), State: store.MovementUndone, AnimalCount: 1})
	ids[5] = r.move(store.Movement{Source: F2, Destination: F4, TransferDate: ymd(3, 12), ArrivalDate: ymd(3, 13), State: store.MovementAccepted,
		AnimalCount: 2, Devices: []store.MovementDevice{dev(c2, F2, long, "rejected"), dev(c3, F2, long, "accepted")}})
	ids[6] = r.move(store.Movement{Source: F3, Destination: F1, TransferDate: ymd(3, 2), ArrivalDate: ymd(3, 2), State: store.MovementCompleted, AnimalCount: 1})
	ids[7] = r.move(store.Movement{Source: F4, Destination: F3, TransferDate: ymd(3, 20), ArrivalDate: ymd(3, 21), State: store.MovementRejected, AnimalCount: 1})
	ids[8] = r.move(store.Movement{Source: F2, Destination: F3, ReviewHolding: F3, TransferDate: ymd(3, 25), State: store.MovementPendingReview,
		Species: livestock.SpeciesGoats, AnimalCount: 1})
	ids[9] = r.move(store.Movement{Source: F4, Destination: F3, TransferDate: ymd(3, 1), ArrivalDate: ymd(3, 1), State: store.MovementCompleted, AnimalCount: 1})
	return ids
}

// reached is a trace's holdings as holding → direction, hops, date and
// the path's movement numbers.
type reached struct {
	Dir  tracing.Direction
	Hops int
	Date time.Time
	Path []int
}

func summary(res tracing.Result, ids map[int]int64) map[string]reached {
	num := map[int64]int{}
	for n, id := range ids {
		num[id] = n
	}
	out := map[string]reached{}
	for _, h := range res.Holdings {
		r := reached{Dir: h.Direction, Hops: h.Hops, Date: h.Date}
		for _, m := range h.Path {
			r.Path = append(r.Path, num[m.ID])
		}
		out[string(h.Direction[0])+" "+h.Holding.String()] = r
	}
	return out
}

func TestTraceKnown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ids := known(t, s)
		svc := tracing.New(s, nil)
		march := func(q tracing.Query) tracing.Query {
			q.From, q.To = ymd(3, 1), ymd(3, 30)
			return q
		}
		for _, tc := range []struct {
			name string
			q    tracing.Query
			want map[string]reached
		}{
			{"forward three hops: time order, undone and rejected left out, pending followed",
				march(tracing.Query{Holding: F1, Direction: tracing.Forward, Hops: 3}),
				map[string]reached{
					"f " + M.String():  {tracing.Forward, 1, ymd(3, 5), []int{1}},
					"f " + F2.String(): {tracing.Forward, 2, ymd(3, 6), []int{1, 2}},
					"f " + F4.String(): {tracing.Forward, 3, ymd(3, 13), []int{1, 2, 5}},
					"f " + F3.String(): {tracing.Forward, 3, ymd(3, 25), []int{1, 2, 8}},
				}},
			{"two hops stop at F2", march(tracing.Query{Holding: F1, Direction: tracing.Forward, Hops: 2}),
				map[string]reached{
					"f " + M.String():  {tracing.Forward, 1, ymd(3, 5), []int{1}},
					"f " + F2.String(): {tracing.Forward, 2, ymd(3, 6), []int{1, 2}},
				}},
			{"species: the goats' movement is not followed", march(tracing.Query{Holding: F1, Direction: tracing.Forward, Hops: 3, Species: livestock.SpeciesSheep}),
				map[string]reached{
					"f " + M.String():  {tracing.Forward, 1, ymd(3, 5), []int{1}},
					"f " + F2.String(): {tracing.Forward, 2, ymd(3, 6), []int{1, 2}},
					"f " + F4.String(): {tracing.Forward, 3, ymd(3, 13), []int{1, 2, 5}},
				}},
			{"backward: only what arrived before", march(tracing.Query{Holding: F1, Direction: tracing.Backward, Hops: 3}),
				map[string]reached{
					"b " + F3.String(): {tracing.Backward, 1, ymd(3, 2), []int{6}},
					"b " + F4.String(): {tracing.Backward, 2, ymd(3, 1), []int{9, 6}},
				}},
			{"an animal's trace starts from each holding it was on", march(tracing.Query{Animal: c1, Direction: tracing.Forward, Hops: 1}),
				map[string]reached{
					"f " + F4.String(): {tracing.Forward, 1, ymd(3, 13), []int{5}},
					"f " + F3.String(): {tracing.Forward, 1, ymd(3, 25), []int{8}},
				}},
		} {
			res, err := svc.Trace(context.Background(), tc.q)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if diff := cmp.Diff(tc.want, summary(res, ids)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.name, diff)
			}
		}

		both, err := svc.Trace(context.Background(), march(tracing.Query{Holding: F1, Direction: tracing.Both, Hops: 3}))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(both.Holdings); got != 6 {
			t.Errorf("both directions: %d holdings, want 4 forward and 2 backward", got)
		}
		var carried []string
		for _, c := range both.Animals {
			carried = append(carried, c.Animal.Identifier.String()+" on "+c.Animal.CPH.String())
		}
		if diff := cmp.Diff([]string{c1 + " on " + F2.String(), c3 + " on " + F4.String()}, carried); diff != "" {
			t.Errorf("animals the paths carried, where they are now (c2 was rejected) (-want +got):\n%s", diff)
		}
	})
}

// TestTraceDatePath: a holding reached directly late and through a market
// early has the direct path as its fewest hops and the market's as the
// path of its date, forwards and backwards; of paths with the fewest
// hops, the path is the one that gives the best date.
func TestTraceDatePath(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		r := registry{t, s}
		r.seed([]livestock.CPH{F1, M, F2}, nil)
		ids := map[int]int64{
			1: r.move(store.Movement{Source: F1, Destination: M, TransferDate: ymd(3, 5), ArrivalDate: ymd(3, 5), State: store.MovementCompleted, AnimalCount: 1}),
			2: r.move(store.Movement{Source: M, Destination: F2, TransferDate: ymd(3, 6), ArrivalDate: ymd(3, 6), State: store.MovementCompleted, AnimalCount: 1}),
			3: r.move(store.Movement{Source: F1, Destination: F2, TransferDate: ymd(3, 20), ArrivalDate: ymd(3, 20), State: store.MovementCompleted, AnimalCount: 1}),
			4: r.move(store.Movement{Source: F1, Destination: F2, TransferDate: ymd(3, 25), ArrivalDate: ymd(3, 25), State: store.MovementCompleted, AnimalCount: 1}),
		}
		num := map[int64]int{}
		for n, id := range ids {
			num[id] = n
		}
		nums := func(p []store.Movement) []int {
			var out []int
			for _, m := range p {
				out = append(out, num[m.ID])
			}
			return out
		}
		svc := tracing.New(s, nil)
		for _, tc := range []struct {
			q              tracing.Query
			at             livestock.CPH
			date           time.Time
			path, datePath []int
		}{
			{tracing.Query{Holding: F1, Direction: tracing.Forward, Hops: 2}, F2, ymd(3, 6), []int{3}, []int{1, 2}},
			// Backwards, of two direct moves the later gives the date, and
			// is the path: no datePath of as many hops.
			{tracing.Query{Holding: F2, Direction: tracing.Backward, Hops: 2}, F1, ymd(3, 25), []int{4}, nil},
			{tracing.Query{Holding: F1, Direction: tracing.Forward, Hops: 1}, F2, ymd(3, 20), []int{3}, nil},
		} {
			tc.q.From, tc.q.To = ymd(3, 1), ymd(3, 30)
			res, err := svc.Trace(context.Background(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, h := range res.Holdings {
				if h.Holding != tc.at {
					continue
				}
				found = true
				if !h.Date.Equal(tc.date) || !cmp.Equal(nums(h.Path), tc.path) || !cmp.Equal(nums(h.DatePath), tc.datePath) {
					t.Errorf("%s %d hops, %s: date %s, path %v, datePath %v; want %s, %v, %v", tc.q.Direction, tc.q.Hops, tc.at,
						h.Date.Format(time.DateOnly), nums(h.Path), nums(h.DatePath), tc.date.Format(time.DateOnly), tc.path, tc.datePath)
				}
				for _, m := range h.DatePath {
					if m.Devices == nil && m.Batches == nil && m.AnimalCount == 0 {
						t.Errorf("a datePath movement %d was not filled", m.ID)
					}
				}
			}
			if !found {
				t.Errorf("%s %d hops: %s not reached", tc.q.Direction, tc.q.Hops, tc.at)
			}
		}
	})
}
