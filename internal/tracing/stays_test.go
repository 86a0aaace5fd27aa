package tracing_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/tracing"
)

// TestStaysSameDayInAppliedOrder: moves of one day follow in the order the
// register applied them. An on-move reported first (request 38) and
// accepted by the source keeper (review 41) after the sheep went to 0258
// and back (39, 40) is its last move: the sheep ends on 0264, where the
// register has it, not on 0257.
func TestStaysSameDayInAppliedOrder(t *testing.T) {
	tag := livestock.MustTag(livestock.SpeciesSheep, "UK0130181 00020")
	a0257, a0258, a0264 := livestock.MustCPH("01/100/0257"), livestock.MustCPH("01/100/0258"), livestock.MustCPH("01/100/0264")
	day, before := ymd(11, 15), ymd(10, 1)
	move := func(id, review int64, from, to livestock.CPH, state store.MovementState) store.Movement {
		return store.Movement{ID: id, RequestID: id, ReviewID: review, Source: from, Destination: to, TransferDate: day,
			ArrivalDate: day, State: state, AnimalCount: 1,
			Devices: []store.MovementDevice{{Identifier: tag, PriorCPH: from, PriorOnSince: before, Outcome: "accepted"}}}
	}
	moves := []store.Movement{
		move(38, 41, a0257, a0264, store.MovementAccepted),
		move(39, 0, a0257, a0258, store.MovementCompleted),
		move(40, 0, a0258, a0257, store.MovementCompleted),
	}
	a := store.Animal{Identifier: tag, Species: livestock.SpeciesSheep, CPH: a0264, OnSince: day}
	got := tracing.Stays(a, moves)
	want := []tracing.Stay{
		{Holding: a0257, From: before, To: day},
		{Holding: a0258, From: day, To: day, Movement: 39},
		{Holding: a0257, From: day, To: day, Movement: 40},
		{Holding: a0264, From: day, Movement: 38},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y time.Time) bool { return x.Equal(y) })); diff != "" {
		t.Errorf("stays (-want +got):\n%s", diff)
	}
}

// TestTodayIsTheUKDay: half past eleven UTC on 1 July is half past midnight
// on 2 July in London, and the register's today is the 2nd.
func TestTodayIsTheUKDay(t *testing.T) {
	at := time.Date(2026, 7, 1, 23, 30, 0, 0, time.UTC)
	if got := tracing.New(nil, func() time.Time { return at }).Today(); !got.Equal(time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Today at %s = %s, want 2026-07-02", at, got)
	}
}
