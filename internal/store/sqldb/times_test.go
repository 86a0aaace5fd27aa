package sqldb

import (
	"testing"
	"time"
)

// FuzzParseTimeFormat: the fast path agrees with time.Parse wherever it
// answers, and answers for every instant SQLite is given (TimeFormat).
func FuzzParseTimeFormat(f *testing.F) {
	for _, s := range []string{"2024-01-01T10:00:00.000000Z", "2026-11-25T03:44:13.689121Z", "2024-02-29T23:59:59.999999Z",
		"2023-02-29T00:00:00.000000Z", "2024-13-01T00:00:00.000000Z", "2024-01-01T24:00:00.000000Z", "2024-01-01T10:00:00Z",
		"2024-01-01", "2024-01-01T10:00:00.00000aZ", "+024-01-01T10:00:00.000000Z", "0000-01-01T00:00:00.000000Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseTimeFormat(s)
		want, err := time.Parse(TimeFormat, s)
		if ok && (err != nil || !got.Equal(want) || got.Location() != time.UTC) {
			t.Fatalf("parseTimeFormat(%q) = %v; time.Parse says %v, %v", s, got, want, err)
		}
		if !ok && err == nil && want.Format(TimeFormat) == s {
			t.Fatalf("parseTimeFormat(%q) refused what time.Parse reads as %v", s, want)
		}
	})
}

func TestParseTimeFormatRoundTrip(t *testing.T) {
	for _, in := range []time.Time{time.Date(2024, 2, 29, 23, 59, 59, 999999000, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 12, 30, 1, 1000, time.UTC), time.Now().UTC().Truncate(time.Microsecond)} {
		got, ok := parseTimeFormat(in.Format(TimeFormat))
		if !ok || !got.Equal(in) {
			t.Errorf("parseTimeFormat(%q) = %v, %v; want %v", in.Format(TimeFormat), got, ok, in)
		}
	}
}

func BenchmarkScanTime(b *testing.B) {
	for b.Loop() {
		if _, err := scanTime("2026-11-25T03:44:13.689121Z", TimeFormat); err != nil {
			b.Fatal(err)
		}
	}
}
