package tracing_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
	"github.com/drover-registry/drover/internal/tracing"
)

// TestTraceAnimalsOfEveryCarrier: a holding's trace lists the animals of
// every movement that carried the risk on, not only of the one on the
// path to the holding it reached: a second move on the same route two days
// later is a contact too.
func TestTraceAnimalsOfEveryCarrier(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		p1, p2 := livestock.MustCPH("77/001/0001"), livestock.MustCPH("77/001/0002")
		a, b := "UK0100077 00001", "UK0100077 00002"
		r := registry{t, s}
		r.seed([]livestock.CPH{p1, p2}, map[string]store.Animal{a: {CPH: p1, OnSince: ymd(1, 1)}, b: {CPH: p1, OnSince: ymd(1, 1)}})
		for _, m := range []struct {
			id  string
			day time.Time
		}{{a, ymd(3, 5)}, {b, ymd(3, 7)}} {
			r.move(store.Movement{Source: p1, Destination: p2, TransferDate: m.day, ArrivalDate: m.day, State: store.MovementCompleted,
				AnimalCount: 1, Devices: []store.MovementDevice{dev(m.id, p1, ymd(1, 1), "accepted")}})
		}
		res, err := tracing.New(s, nil).Trace(context.Background(), tracing.Query{Holding: p1, From: ymd(3, 1), To: ymd(3, 30),
			Direction: tracing.Forward, Hops: 1})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range res.Animals {
			got = append(got, c.Animal.Identifier.String())
		}
		if !slices.Equal(got, []string{a, b}) {
			t.Errorf("animals carried = %v, want both sheep", got)
		}
	})
}

// TestNamed: a holding the registry has no record of is known to tracing
// once a movement names it, at either end and at any date.
func TestNamed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		from, to, never := livestock.MustCPH("78/001/0001"), livestock.MustCPH("78/001/0002"), livestock.MustCPH("78/001/0003")
		registry{t, s}.move(store.Movement{Source: from, Destination: to, TransferDate: ymd(1, 5), ArrivalDate: ymd(1, 5),
			State: store.MovementCompleted, AnimalCount: 1})
		svc := tracing.New(s, nil)
		for _, tc := range []struct {
			cph  livestock.CPH
			want bool
		}{{from, true}, {to, true}, {never, false}} {
			if got, err := svc.Named(context.Background(), tc.cph); err != nil || got != tc.want {
				t.Errorf("Named(%s) = %v, %v; want %v", tc.cph, got, err, tc.want)
			}
		}
	})
}
