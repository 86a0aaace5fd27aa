package livestock

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"2024-03-01", "2024-02-29", "2000-02-29", "2023-12-31", "2023-01-01", "0001-01-01",
		"9999-12-31", "1999-04-30", "2023-02-28",
	} {
		d, err := ParseDate(in)
		if err != nil {
			t.Errorf("ParseDate(%q): %v", in, err)
			continue
		}
		if d.String() != in || d.Time().Format(time.DateOnly) != in || d.Time().Location() != time.UTC ||
			d.Time().Hour() != 0 || d.IsZero() {
			t.Errorf("ParseDate(%q) = %q, time %v", in, d, d.Time())
		}
	}
}

var dateNearMisses = []struct{ in, msg string }{
	{"2023-02-29", "2023-02-29 is not a day of the calendar"},
	{"1900-02-29", "1900-02-29 is not a day of the calendar"},
	{"2024-04-31", "2024-04-31 is not a day of the calendar"},
	{"2024-01-00", "2024-01-00 is not a day of the calendar"},
	{"2024-01-32", "2024-01-32 is not a day of the calendar"},
	{"0000-01-01", "the year must be 0001 or later"},
	{"2024-00-10", "the month must be 01 to 12"},
	{"2024-13-10", "the month must be 01 to 12"},
	{"", "expected YYYY-MM-DD"},
	{"2024-3-1", "expected YYYY-MM-DD"},
	{"24-03-01", "expected YYYY-MM-DD"},
	{"2024/03/01", "expected YYYY-MM-DD"},
	{"20240301", "expected YYYY-MM-DD"},
	{"01-03-2024", "expected YYYY-MM-DD"},
	{"2024-03-01T00:00:00Z", "expected YYYY-MM-DD"},
	{"2024-03-01 ", "expected YYYY-MM-DD"},
	{" 2024-03-01", "expected YYYY-MM-DD"},
	{"+2024-03-01", "expected YYYY-MM-DD"},
	{"-002-03-01", "expected YYYY-MM-DD"},
	{"12024-03-01", "expected YYYY-MM-DD"},
	{"2024-03-1a", "expected YYYY-MM-DD"},
	{"２024-03-01", "expected YYYY-MM-DD"},
}

func TestParseDateNearMisses(t *testing.T) {
	t.Parallel()
	for _, tt := range dateNearMisses {
		d, err := ParseDate(tt.in)
		if err == nil {
			t.Errorf("ParseDate(%q) = %q, want an error", tt.in, d)
			continue
		}
		checkErr(t, tt.in, err, CodeBadFormat, "not a valid date: "+tt.msg)
	}
}

func TestDateArithmetic(t *testing.T) {
	t.Parallel()
	d := func(s string) Date {
		v, err := ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		from string
		n    int
		want string
	}{
		{"2024-03-04", 6, "2024-03-10"}, // Monday + 6: the Sunday
		{"2024-02-28", 1, "2024-02-29"},
		{"2023-02-28", 1, "2023-03-01"},
		{"2024-12-31", 1, "2025-01-01"},
		{"2024-01-01", -1, "2023-12-31"},
		{"2024-01-01", 0, "2024-01-01"},
		{"2024-03-31", 27, "2024-04-27"},
		{"9999-12-31", 1, ""},
		{"0001-01-01", -1, ""},
		{"2024-01-01", 1 << 40, ""},
		{"2024-01-01", -(1 << 40), ""},
	}
	for _, tt := range tests {
		got := d(tt.from).AddDays(tt.n)
		if got.String() != tt.want {
			t.Errorf("%s.AddDays(%d) = %q, want %q", tt.from, tt.n, got, tt.want)
		}
		if tt.want != "" && (got.DaysSince(d(tt.from)) != tt.n || d(tt.from).DaysSince(got) != -tt.n) {
			t.Errorf("DaysSince(%s, %s) = %d, want %d", got, tt.from, got.DaysSince(d(tt.from)), tt.n)
		}
	}
	if n := d("9999-12-31").DaysSince(d("0001-01-01")); n != 3652058 {
		t.Errorf("DaysSince across the whole range = %d", n)
	}
	if !(Date{}).AddDays(1).IsZero() {
		t.Error("zero Date + 1 is not zero")
	}
	a, b := d("2024-03-01"), d("2024-03-02")
	if !a.Before(b) || a.After(b) || !b.After(a) || b.Before(a) || a.Before(a) || a.After(a) {
		t.Error("Before/After disagree with the calendar")
	}
	if !(Date{}).Before(a) {
		t.Error("the zero Date is not before every date")
	}
}

func TestDateOf(t *testing.T) {
	t.Parallel()
	bst := time.FixedZone("BST", 3600)
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Date(2024, 3, 1, 23, 59, 0, 0, time.UTC), "2024-03-01"},
		{time.Date(2024, 6, 1, 0, 30, 0, 0, bst), "2024-06-01"}, // 2024-05-31 in UTC
		{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), ""},
		{time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), ""},
	}
	for _, tt := range tests {
		if got := DateOf(tt.t); got.String() != tt.want {
			t.Errorf("DateOf(%v) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

func TestDateZeroAndText(t *testing.T) {
	t.Parallel()
	var d Date
	if !d.IsZero() || !d.Time().IsZero() || d.String() != "" {
		t.Errorf("zero Date = %q, %v", d, d.Time())
	}
	if err := d.UnmarshalText([]byte("2024-02-29")); err != nil {
		t.Fatal(err)
	}
	if b, _ := d.MarshalText(); string(b) != "2024-02-29" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := d.UnmarshalText([]byte("2023-02-29")); err == nil || d.String() != "2024-02-29" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, d)
	}
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2024-03-01", "2024-02-29", "0001-01-01", "9999-12-31"} {
		f.Add(s)
	}
	for _, tt := range dateNearMisses {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := fuzzRoundTrip(t, s, ParseDate)
		if !ok {
			return
		}
		if d.String() != s || DateOf(d.Time()) != d || d.AddDays(1).DaysSince(d) != 1 && d.String() != "9999-12-31" {
			t.Fatalf("%q: date %q, time %v", s, d, d.Time())
		}
	})
}

func TestParseRecordDate(t *testing.T) {
	for s, ok := range map[string]bool{"1900-01-01": true, "2026-11-25": true, "1899-12-31": false, "0001-01-01": false, "2026-02-30": false} {
		if _, err := ParseRecordDate(s); (err == nil) != ok {
			t.Errorf("ParseRecordDate(%q) = %v, want ok %v", s, err, ok)
		}
	}
}
