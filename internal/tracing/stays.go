package tracing

import (
	"cmp"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Stay is a period an animal spent on a holding: From its arrival (or
// birth or registration there) to To, the day it left or died; To is zero
// while it is there still. Both days count as on the holding.
type Stay struct {
	Holding  livestock.CPH
	From, To time.Time
	// Movement is the movement that brought it there; 0 for where it
	// started.
	Movement int64
}

// Overlaps reports whether the stay and the days [from, to] share a day.
func (s Stay) Overlaps(from, to time.Time) bool {
	return !s.From.After(to) && (s.To.IsZero() || !s.To.Before(from))
}

// Moved returns the device by which m moved the animal id onto its
// destination: m completed or accepted, and the animal accepted.
func Moved(m store.Movement, id string) (store.MovementDevice, bool) {
	if m.State != store.MovementCompleted && m.State != store.MovementAccepted {
		return store.MovementDevice{}, false
	}
	for _, d := range m.Devices {
		if d.Identifier.String() == id {
			return d, d.Outcome == "accepted"
		}
	}
	return store.MovementDevice{}, false
}

// Arrival is the day a movement's animals reach its destination: the
// review's arrival date, or the transfer date until a review gives one.
func Arrival(m store.Movement) time.Time {
	if m.ArrivalDate.IsZero() {
		return m.TransferDate
	}
	return m.ArrivalDate
}

// Stays is animal a's life, holding by holding, from moves: every movement
// that names it, in any state. It starts where its first movement found it
// (or, if it never moved, where it is) and ends on its death date, if it
// has one.
func Stays(a store.Animal, moves []store.Movement) []Stay {
	type step struct {
		m store.Movement
		d store.MovementDevice
	}
	var steps []step
	for _, m := range moves {
		if d, ok := Moved(m, a.Identifier.String()); ok {
			steps = append(steps, step{m, d})
		}
	}
	slices.SortStableFunc(steps, func(x, y step) int {
		if c := Arrival(x.m).Compare(Arrival(y.m)); c != 0 {
			return c
		}
		// Moves on one day in the order the register applied them: an
		// on-move accepted after the animal's later moves settled last.
		return cmp.Compare(x.m.Settled(), y.m.Settled())
	})
	cur := Stay{Holding: a.CPH, From: a.OnSince}
	if len(steps) > 0 {
		cur = Stay{Holding: steps[0].d.PriorCPH, From: steps[0].d.PriorOnSince}
		if cur.From.IsZero() {
			cur.From = a.BirthDate
		}
	}
	var out []Stay
	for _, s := range steps {
		cur.To = s.m.TransferDate
		out = append(out, cur)
		cur = Stay{Holding: s.m.Destination, From: Arrival(s.m), Movement: s.m.ID}
	}
	if !a.DeathDate.IsZero() {
		cur.To = a.DeathDate
	}
	return append(out, cur)
}

// Joined merges the stays on one holding that share a day, as an animal's
// do when it leaves and comes back the same day: one stay from the first's
// day to the last's, so that a register or a trace counts the animal once
// on that holding rather than once a visit. Stays on other holdings, and
// stays a day or more apart, are kept as they are; the result is in order
// of From.
func Joined(stays []Stay) []Stay {
	sorted := slices.SortedStableFunc(slices.Values(stays), func(a, b Stay) int { return a.From.Compare(b.From) })
	var out []Stay
	for _, st := range sorted {
		i := slices.IndexFunc(out, func(o Stay) bool {
			return o.Holding == st.Holding && (o.To.IsZero() || !o.To.Before(st.From))
		})
		if i < 0 {
			out = append(out, st)
			continue
		}
		if o := &out[i]; !o.To.IsZero() && (st.To.IsZero() || st.To.After(o.To)) {
			o.To = st.To
		}
	}
	return out
}
