package livestock

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseDateTime(t *testing.T) {
	t.Parallel()
	type parts struct {
		String, Date string
		Unix         int64
		Nanos        int
		Offset       int
	}
	tests := []struct {
		in   string
		want parts
	}{
		{"2024-03-01T09:30:00Z", parts{"2024-03-01T09:30:00Z", "2024-03-01", 1709285400, 0, 0}},
		{"2024-03-01T09:30:00+00:00", parts{"2024-03-01T09:30:00Z", "2024-03-01", 1709285400, 0, 0}},
		{"2024-03-01T10:30:00+01:00", parts{"2024-03-01T10:30:00+01:00", "2024-03-01", 1709285400, 0, 3600}},
		{"2024-03-01T00:30:00+01:00", parts{"2024-03-01T00:30:00+01:00", "2024-03-01", 1709249400, 0, 3600}},
		{"2024-02-29T23:00:00-05:30", parts{"2024-02-29T23:00:00-05:30", "2024-02-29", 1709267400, 0, -19800}},
		{"2024-03-01T00:00:00Z", parts{"2024-03-01T00:00:00Z", "2024-03-01", 1709251200, 0, 0}}, // midnight: a whole start day
		{"2024-03-01T09:30:00.5Z", parts{"2024-03-01T09:30:00.5Z", "2024-03-01", 1709285400, 500000000, 0}},
		{"2024-03-01T09:30:00.500Z", parts{"2024-03-01T09:30:00.5Z", "2024-03-01", 1709285400, 500000000, 0}},
		{"2024-03-01T09:30:00.000Z", parts{"2024-03-01T09:30:00Z", "2024-03-01", 1709285400, 0, 0}},
		{"2024-03-01T09:30:00.1234567+01:00", parts{"2024-03-01T09:30:00.1234567+01:00", "2024-03-01", 1709281800, 123456700, 3600}},
		{"2024-03-01T09:30:00.123456789Z", parts{"2024-03-01T09:30:00.123456789Z", "2024-03-01", 1709285400, 123456789, 0}},
		{"2024-12-31T23:59:59+23:59", parts{"2024-12-31T23:59:59+23:59", "2024-12-31", 1735603259, 0, 86340}},
		{"0001-01-01T00:00:00-23:59", parts{"0001-01-01T00:00:00-23:59", "0001-01-01", -62135510460, 0, -86340}},
		{"9999-12-31T23:59:59.999999999Z", parts{"9999-12-31T23:59:59.999999999Z", "9999-12-31", 253402300799, 999999999, 0}},
	}
	for _, tt := range tests {
		v, err := ParseDateTime(tt.in)
		if err != nil {
			t.Errorf("ParseDateTime(%q): %v", tt.in, err)
			continue
		}
		tm := v.Time()
		_, off := tm.Zone()
		got := parts{v.String(), v.Date().String(), tm.Unix(), tm.Nanosecond(), off}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseDateTime(%q) (-want +got):\n%s", tt.in, diff)
		}
		if s := tm.Format(time.RFC3339Nano); s != v.String() {
			t.Errorf("ParseDateTime(%q).Time() prints %q, String %q", tt.in, s, v)
		}
	}
	a, _ := ParseDateTime("2024-03-01T09:30:00Z")
	b, _ := ParseDateTime("2024-03-01T09:30:00+00:00")
	c, _ := ParseDateTime("2024-03-01T10:30:00+01:00")
	if a != b || a == c || !a.Time().Equal(c.Time()) {
		t.Errorf("equality: %q %q %q", a, b, c)
	}
}

var dateTimeNearMisses = []struct{ in, msg string }{
	{"2024-03-01", "the time is mandatory"},
	{"2024-03-01T09:30:00", "the offset is mandatory"},
	{"2024-03-01T09:30:00.5", "the offset is mandatory"},
	{"2024-03-01 09:30:00Z", "the date and the time must be separated by T"},
	{"2024-03-01t09:30:00Z", "the date and the time must be separated by T"},
	{"2024-03-0109:30:00Z", "the date and the time must be separated by T"},
	{"2024-03-01T", "the time must be HH:mm:ss"},
	{"2024-03-01T09:30Z", "the time must be HH:mm:ss"},
	{"2024-03-01T9:30:00Z", "the time must be HH:mm:ss"},
	{"2024-03-01T09-30-00Z", "the time must be HH:mm:ss"},
	{"2024-03-01T093000Z", "the time must be HH:mm:ss"},
	{"2024-03-01T24:00:00Z", "the hour must be 00 to 23"},
	{"2024-03-01T09:60:00Z", "the minutes must be 00 to 59"},
	{"2024-03-01T09:30:60Z", "the seconds must be 00 to 59"},
	{"2024-03-01T09:30:00.Z", "fractional seconds must be 1 to 9 digits"},
	{"2024-03-01T09:30:00.1234567890Z", "fractional seconds must be 1 to 9 digits"},
	{"2024-03-01T09:30:00,5Z", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00z", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00 01:00", "the offset must be Z or ±hh:mm (in a URL, + is written %2b)"},
	{"2024-03-01T09:30:00+01", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00+0100", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00+1:00", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00+01:0", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00+01:00 ", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00ZZ", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00Z ", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00UTC", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00GMT+1", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09:30:00+24:00", "the offset must be Z or ±hh:mm with hh 00 to 23 and mm 00 to 59"},
	{"2024-03-01T09:30:00+01:60", "the offset must be Z or ±hh:mm with hh 00 to 23 and mm 00 to 59"},
	{"2024-03-01T09:30:00-00:00", "UTC is written Z or +00:00"},
	{"2024-03-01T09:30:00%2b01:00", "the offset must be Z or ±hh:mm"},
	{"2024-03-01T09%3a30%3a00Z", "the time must be HH:mm:ss"},
	{"2023-02-29T09:30:00Z", "2023-02-29 is not a day of the calendar"},
	{"2024-13-01T09:30:00Z", "the month must be 01 to 12"},
	{"2024-3-1T09:30:00Z", "the date must be yyyy-MM-dd"},
	{"", "expected a date and a time"},
	{"2024-03", "expected a date and a time"},
	{"Fri, 01 Mar 2024 09:30:00 GMT", "the date must be yyyy-MM-dd"},
	{"1709285400", "the date must be yyyy-MM-dd"},
}

func TestParseDateTimeNearMisses(t *testing.T) {
	t.Parallel()
	for _, tt := range dateTimeNearMisses {
		v, err := ParseDateTime(tt.in)
		if err == nil {
			t.Errorf("ParseDateTime(%q) = %q, want an error", tt.in, v)
			continue
		}
		checkErr(t, tt.in, err, CodeBadFormat, "not a valid date-time: "+tt.msg)
		checkErr(t, tt.in, err, CodeBadFormat, "(yyyy-MM-ddTHH:mm:ssK")
	}
}

func TestDateTimeZeroAndText(t *testing.T) {
	t.Parallel()
	var v DateTime
	if !v.IsZero() || !v.Time().IsZero() || !v.Date().IsZero() {
		t.Errorf("zero DateTime = %q", v)
	}
	if err := v.UnmarshalText([]byte("2024-03-01T09:30:00+00:00")); err != nil {
		t.Fatal(err)
	}
	if b, _ := v.MarshalText(); string(b) != "2024-03-01T09:30:00Z" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := v.UnmarshalText([]byte("2024-03-01")); err == nil || v.String() != "2024-03-01T09:30:00Z" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, v)
	}
}

func FuzzParseDateTime(f *testing.F) {
	for _, s := range []string{
		"2024-03-01T09:30:00Z", "2024-03-01T09:30:00+00:00", "2024-03-01T10:30:00+01:00",
		"2024-03-01T09:30:00.1234567-05:30", "0001-01-01T00:00:00-23:59", "9999-12-31T23:59:59.999999999+23:59",
	} {
		f.Add(s)
	}
	for _, tt := range dateTimeNearMisses {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := fuzzRoundTrip(t, s, ParseDateTime)
		if !ok {
			return
		}
		if got := v.Time().Format(time.RFC3339Nano); got != v.String() {
			t.Fatalf("%q: Time prints %q, String is %q", s, got, v)
		}
		if v.Date().String() != s[:10] {
			t.Fatalf("%q: Date is %q", s, v.Date())
		}
		if _, err := ParseDate(v.Date().String()); err != nil {
			t.Fatalf("%q: Date %q does not parse: %v", s, v.Date(), err)
		}
	})
}
