package api

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// backlog is a store's JobBacklog that answers what the test sets.
type backlog struct {
	n   int
	err error
}

func (b *backlog) JobBacklog(context.Context) (map[store.JobState]int, error) {
	return map[store.JobState]int{store.JobAvailable: b.n}, b.err
}

// TestQueueGateReadings: the gate refuses over its bound and not at it,
// and a reading that fails leaves the last one standing.
func TestQueueGateReadings(t *testing.T) {
	t.Parallel()
	fake := &backlog{n: 5}
	g := &queueGate{max: 3, store: fake}
	var got []bool
	for _, step := range []struct {
		n   int
		err error
	}{{5, nil}, {3, nil}, {100, errors.New("the database is gone")}, {4, nil}} {
		fake.n, fake.err = step.n, step.err
		g.read()
		got = append(got, g.check(g.readAt) != nil) // a fresh reading: no new one starts
	}
	if want := []bool{true, false, false, true}; !slices.Equal(got, want) {
		t.Errorf("refused after readings of 5, 3, a failure and 4 (bound 3) = %v, want %v", got, want)
	}
	if (*queueGate)(nil).check(time.Now()) != nil || (&queueGate{}).check(time.Now()) != nil {
		t.Error("a gate without a bound refused")
	}
}

// TestQueueGateReadsByRoom: a new reading is due once a second at most,
// and then only when this replica has checked as many submissions as the
// queue had room for, or the last reading is ten seconds old; over the
// bound, every second.
func TestQueueGateReadsByRoom(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name            string
		queued, checked int
		age             time.Duration
		want            bool
	}{
		{"never read", 0, 0, 1000 * time.Hour, true},
		{"room left, a second old", 40, 10, time.Second, false},
		{"room used up, under a second old", 40, 60, 999 * time.Millisecond, false},
		{"room used up, a second old", 40, 60, time.Second, true},
		{"room left, ten seconds old", 40, 10, 10 * time.Second, true},
		{"at the bound, a second old", 100, 0, time.Second, true},
		{"over the bound, a second old", 150, 0, time.Second, true},
		{"over the bound, half a second old", 150, 5, 500 * time.Millisecond, false},
	} {
		g := &queueGate{max: 100, queued: tc.queued, checked: tc.checked, readAt: at.Add(-tc.age)}
		if got := g.due(at); got != tc.want {
			t.Errorf("%s: due = %v, want %v", tc.name, got, tc.want)
		}
		g.reading = true
		if g.due(at) {
			t.Errorf("%s: due while a reading is under way", tc.name)
		}
	}
	// Each check counts, and a reading starts the count again.
	fake := &countedBacklog{n: 40}
	g := &queueGate{max: 100, store: fake}
	g.read()
	later := g.readAt.Add(2 * time.Second)
	for range 59 {
		if g.check(later) != nil {
			t.Fatal("refused under the bound")
		}
	}
	if n := fake.calls.Load(); n != 1 {
		t.Fatalf("%d readings with room left for more submissions; want the first alone", n)
	}
	g.check(later)
	for deadline := time.Now().Add(5 * time.Second); fake.calls.Load() < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no reading started once the queue's room was used")
		}
	}
}

// countedBacklog is a backlog that counts its readings.
type countedBacklog struct {
	n     int
	calls atomic.Int32
}

func (b *countedBacklog) JobBacklog(context.Context) (map[store.JobState]int, error) {
	b.calls.Add(1)
	return map[store.JobState]int{store.JobAvailable: b.n}, nil
}
