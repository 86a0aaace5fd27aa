package sqldb

import (
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// TestDurationsBuckets checks where a duration is counted: at a bound in
// that bound's bucket, just over it in the next, past every bound in the
// last.
func TestDurationsBuckets(t *testing.T) {
	t.Parallel()
	var d durations
	last := len(store.GroupBuckets)
	for _, c := range []struct {
		x    time.Duration
		want int
	}{
		{0, 0},
		{store.GroupBuckets[0], 0},
		{store.GroupBuckets[0] + 1, 1},
		{store.GroupBuckets[5], 5},
		{store.GroupBuckets[last-1], last - 1},
		{store.GroupBuckets[last-1] + 1, last},
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
