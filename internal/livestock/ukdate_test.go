package livestock

import (
	"testing"
	"time"
)

// TestStartsADay: midnight in UTC or in the UK (whose offset changes with
// the season) is a day; midnight in another offset, or a fraction of a
// second past midnight, is an instant.
func TestStartsADay(t *testing.T) {
	for _, tc := range []struct {
		at   string
		want bool
	}{
		{"2026-11-30T00:00:00Z", true},
		{"2026-07-01T00:00:00Z", true},      // 01:00 in the UK, but how clients write a day
		{"2026-07-01T00:00:00+01:00", true}, // the UK's midnight in summer
		{"2026-11-30T00:00:00+01:00", false},
		{"2026-11-30T00:00:00+14:00", false},
		{"2026-11-30T00:00:00-05:00", false},
		{"2026-11-30T00:00:00.5Z", false},
		{"2026-11-30T12:00:00Z", false},
	} {
		at, err := time.Parse(time.RFC3339Nano, tc.at)
		if err != nil {
			t.Fatal(err)
		}
		if got := StartsADay(at); got != tc.want {
			t.Errorf("StartsADay(%s) = %v, want %v", tc.at, got, tc.want)
		}
	}
}
