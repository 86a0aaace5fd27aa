package livestock

import (
	"strings"
	"testing"
)

func TestParseMovementTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, instant, day string }{
		{"2026-11-03", "2026-11-03T00:00:00Z", "2026-11-03"},
		{"2026-07-01", "2026-07-01T00:00:00Z", "2026-07-01"}, // 01:00 in London: the same day
		{"2026-11-03T10:15:00Z", "2026-11-03T10:15:00Z", "2026-11-03"},
		{"2026-11-03T10:15:00+00:00", "2026-11-03T10:15:00Z", "2026-11-03"},
		{"2026-07-01T00:30:00+01:00", "2026-07-01T00:30:00+01:00", "2026-07-01"},
		{"2026-06-30T23:30:00Z", "2026-06-30T23:30:00Z", "2026-07-01"}, // 00:30 BST: the next UK day
		{"2026-11-03T23:30:00-05:00", "2026-11-03T23:30:00-05:00", "2026-11-04"},
		{"2026-11-03T10:15:00.250Z", "2026-11-03T10:15:00.25Z", "2026-11-03"},
	} {
		at, d, err := ParseMovementTime(tc.in)
		if err != nil || at.String() != tc.instant || d.String() != tc.day {
			t.Errorf("ParseMovementTime(%q) = %q, %q, %v; want %q, %q", tc.in, at, d, err, tc.instant, tc.day)
		}
	}
	for _, tc := range []struct{ in, msg string }{
		{"2026-02-30", "not a day of the calendar"},
		{"1899-12-31", "1900-01-01 or later"},
		{"1899-12-31T12:00:00Z", "1900-01-01 or later"},
		{"2026-11-03T10:15", "the time must be HH:mm:ss"},
		{"2026-11-03T10:15:00", "the offset is mandatory"},
		{"2026-11-03 10:15:00Z", "separated by T"},
		{"03/11/2026", "date"},
		{"", "expected a date and a time"},
	} {
		_, _, err := ParseMovementTime(tc.in)
		if err == nil || !strings.Contains(err.(*Error).Fields[0].Message, tc.msg) {
			t.Errorf("ParseMovementTime(%q) = %v, want an error saying %q", tc.in, err, tc.msg)
		}
	}
}
