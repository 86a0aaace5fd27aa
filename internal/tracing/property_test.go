package tracing_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
	"github.com/drover-registry/drover/internal/tracing"
)

// TestTraceProperty holds Trace to a brute-force trace, which follows
// every time-respecting path of the registry, on random small registries
// of both stores. Each registry has holdings of its own, so that one store
// serves every case.
func TestTraceProperty(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		svc, n := tracing.SplitReads(tracing.New(s, nil)), 0
		states := []store.MovementState{store.MovementCompleted, store.MovementCompleted, store.MovementAccepted,
			store.MovementAccepted, store.MovementPendingReview, store.MovementUndone, store.MovementRejected}
		rapid.Check(t, func(rt *rapid.T) {
			n++
			holdings := make([]livestock.CPH, 5)
			for i := range holdings {
				holdings[i] = livestock.MustCPH(fmt.Sprintf("%02d/%03d/%04d", 10+i, n%1000, 1+n/1000))
			}
			// rapid's draws lean to small values, which made most registries
			// a chain of one holding's movements; a drawn seed spreads them.
			rnd := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
			pick := func(lo, hi int) int { return lo + rnd.IntN(hi-lo+1) }
			r := registry{t, s}
			var moves []store.Movement
			for range pick(5, 30) {
				src := pick(0, 4)
				dst := (src + pick(1, 4)) % 5
				m := store.Movement{Source: holdings[src], Destination: holdings[dst], AnimalCount: 1,
					TransferDate: ymd(3, pick(1, 14)), State: sample(rnd, states),
					Species: sample(rnd, []livestock.Species{livestock.SpeciesSheep, livestock.SpeciesSheep, livestock.SpeciesGoats})}
				switch m.State {
				case store.MovementAccepted, store.MovementRejected:
					m.ArrivalDate = m.TransferDate.AddDate(0, 0, pick(0, 3))
				case store.MovementCompleted, store.MovementUndone:
					m.ArrivalDate = m.TransferDate
				}
				m.ID = r.move(m)
				moves = append(moves, m)
			}
			// Many traces of each registry: a registry costs far more to build than to trace.
			for range 25 {
				from := ymd(3, pick(1, 5))
				q := tracing.Query{Holding: holdings[pick(0, 4)], From: from,
					To:        from.AddDate(0, 0, pick(2, 12)),
					Direction: sample(rnd, []tracing.Direction{tracing.Forward, tracing.Backward, tracing.Both}),
					Hops:      pick(0, 4), Species: sample(rnd, []livestock.Species{0, livestock.SpeciesSheep})}
				res, err := svc.Trace(context.Background(), q)
				if err != nil {
					rt.Fatalf("Trace(%+v): %v", q, err)
				}
				got := map[string]best{}
				for _, h := range res.Holdings {
					got[string(h.Direction)+" "+h.Holding.String()] = best{h.Hops, h.Date}
					checkPath(rt, q, h)
				}
				if diff := cmp.Diff(bruteForce(q, moves), got); diff != "" {
					rt.Fatalf("Trace(%+v) against brute force (-want +got):\n%s", q, diff)
				}
			}
		})
	})
}

// best is a holding's fewest hops and best day.
type best struct {
	Hops int
	Date time.Time
}

// bruteForce follows every time-respecting path of up to q.Hops standing
// movements from q.Holding, and keeps for each holding reached the fewest
// hops and the best day (forwards the earliest arrival, backwards the
// latest departure). The traced holding itself is no answer: no path
// returns to it at a better day than the window's own bound.
func bruteForce(q tracing.Query, moves []store.Movement) map[string]best {
	out := map[string]best{}
	standing := func(m store.Movement) bool {
		return (m.State == store.MovementCompleted || m.State == store.MovementAccepted || m.State == store.MovementPendingReview) &&
			(q.Species.IsZero() || m.Species == q.Species)
	}
	keep := func(dir tracing.Direction, h livestock.CPH, hops int, day time.Time, earlier bool) {
		if h == q.Holding {
			return
		}
		k := string(dir) + " " + h.String()
		b, ok := out[k]
		if !ok {
			out[k] = best{hops, day}
			return
		}
		b.Hops = min(b.Hops, hops)
		if earlier == day.Before(b.Date) && !day.Equal(b.Date) {
			b.Date = day
		}
		out[k] = b
	}
	var forward, backward func(h livestock.CPH, day time.Time, hops int)
	forward = func(h livestock.CPH, day time.Time, hops int) {
		if hops == q.Hops {
			return
		}
		for _, m := range moves {
			if standing(m) && m.Source == h && !m.TransferDate.Before(day) && !m.TransferDate.After(q.To) {
				keep(tracing.Forward, m.Destination, hops+1, tracing.Arrival(m), true)
				forward(m.Destination, tracing.Arrival(m), hops+1)
			}
		}
	}
	backward = func(h livestock.CPH, day time.Time, hops int) {
		if hops == q.Hops {
			return
		}
		for _, m := range moves {
			if a := tracing.Arrival(m); standing(m) && m.Destination == h && !a.After(day) && !a.Before(q.From) {
				keep(tracing.Backward, m.Source, hops+1, m.TransferDate, false)
				backward(m.Source, m.TransferDate, hops+1)
			}
		}
	}
	if q.Direction != tracing.Backward {
		forward(q.Holding, q.From, 0)
	}
	if q.Direction != tracing.Forward {
		backward(q.Holding, q.To, 0)
	}
	return out
}

// checkPath holds a reached holding's path to the rules: as many
// movements as its hops, joined end to end from the traced holding to it,
// each leaving after (forwards) the one before arrived.
func checkPath(rt *rapid.T, q tracing.Query, h tracing.Reached) {
	if len(h.Path) != h.Hops {
		rt.Fatalf("%s %s: path of %d movements for %d hops", h.Direction, h.Holding, len(h.Path), h.Hops)
	}
	at := q.Holding
	if h.Direction == tracing.Backward {
		at = h.Holding
	}
	for i, m := range h.Path {
		if m.Source != at {
			rt.Fatalf("%s %s: hop %d leaves %s, not %s", h.Direction, h.Holding, i, m.Source, at)
		}
		if i > 0 && m.TransferDate.Before(tracing.Arrival(h.Path[i-1])) {
			rt.Fatalf("%s %s: hop %d left before the hop before it arrived", h.Direction, h.Holding, i)
		}
		at = m.Destination
	}
	if end := map[bool]livestock.CPH{true: h.Holding, false: q.Holding}[h.Direction == tracing.Forward]; at != end {
		rt.Fatalf("%s %s: path ends on %s", h.Direction, h.Holding, at)
	}
}

func sample[T any](rnd *rand.Rand, list []T) T { return list[rnd.IntN(len(list))] }
