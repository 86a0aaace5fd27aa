package groupcommit

import (
	"testing"
	"time"
)

// buckets are the tests' histogram bounds.
var buckets = []time.Duration{250 * time.Microsecond, time.Millisecond, 5 * time.Millisecond,
	10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond, time.Second}

// TestDurationsBuckets checks where a duration is counted: at a bound in
// that bound's bucket, just over it in the next, past every bound in the
// last.
func TestDurationsBuckets(t *testing.T) {
	t.Parallel()
	var d durations
	d.init(buckets)
	last := len(buckets)
	for _, c := range []struct {
		x    time.Duration
		want int
	}{
		{0, 0},
		{buckets[0], 0},
		{buckets[0] + 1, 1},
		{buckets[5], 5},
		{buckets[last-1], last - 1},
		{buckets[last-1] + 1, last},
		{time.Hour, last},
	} {
		before := d.snapshot()
		d.observe(c.x)
		after := d.snapshot()
		for i := range after.Counts {
			want := before.Counts[i]
			if i == c.want {
				want++
			}
			if after.Counts[i] != want {
				t.Errorf("observe(%v): bucket %d counts %d, want %d", c.x, i, after.Counts[i], want)
			}
		}
		if after.Sum-before.Sum != c.x {
			t.Errorf("observe(%v) added %v to the sum", c.x, after.Sum-before.Sum)
		}
	}
}
