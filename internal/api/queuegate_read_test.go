package api

import (
	"context"
	"errors"
	"slices"
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
