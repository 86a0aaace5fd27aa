package livestock

import (
	"fmt"
	"time"
)

// DateTime is an instant with the UTC offset it was written with, in the
// movements interface's format yyyy-MM-ddTHH:mm:ssK: the time and the offset
// are mandatory, K is Z or ±hh:mm, fractional seconds are optional. It is
// printed in RFC 3339 with the same offset (a zero offset as Z, fractional
// seconds without trailing zeros), so two values are == when they were
// written with the same instant and offset. The zero value is "no time".
type DateTime struct{ s string }

const dateTimeRule = "yyyy-MM-ddTHH:mm:ssK, e.g. 2024-03-01T09:30:00Z or 2024-03-01T09:30:00+01:00"

// ParseDateTime is the one, strict, parser: a date alone, a missing T, a
// missing offset or an out-of-range field is an error naming the rule.
func ParseDateTime(s string) (DateTime, error) {
	t, why := parseDateTime(s)
	if why != "" {
		return DateTime{}, ruleError(CodeBadFormat, "date-time", s, why+" ("+dateTimeRule+")")
	}
	return DateTime{t.Format(time.RFC3339Nano)}, nil
}

func parseDateTime(s string) (time.Time, string) {
	if len(s) < 10 {
		return time.Time{}, "expected a date and a time"
	}
	day, why := parseDateParts(s[:10])
	if why == "expected "+dateRule {
		return time.Time{}, "the date must be yyyy-MM-dd"
	}
	if why != "" {
		return time.Time{}, why
	}
	p := scanner{s: s, i: 10}
	if p.done() {
		return time.Time{}, "the time is mandatory"
	}
	if !p.lit("T") {
		return time.Time{}, "the date and the time must be separated by T"
	}
	h, ok1 := p.digits(2)
	ok2 := p.lit(":")
	m, ok3 := p.digits(2)
	ok4 := p.lit(":")
	sec, ok5 := p.digits(2)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return time.Time{}, "the time must be HH:mm:ss"
	}
	hour, minute, second := atoi(h), atoi(m), atoi(sec)
	switch {
	case hour > 23:
		return time.Time{}, "the hour must be 00 to 23"
	case minute > 59:
		return time.Time{}, "the minutes must be 00 to 59"
	case second > 59:
		return time.Time{}, "the seconds must be 00 to 59"
	}
	nsec := 0
	if p.lit(".") {
		frac := p.run()
		if len(frac) < 1 || len(frac) > 9 {
			return time.Time{}, "fractional seconds must be 1 to 9 digits"
		}
		nsec = atoi((frac + "00000000")[:9])
	}
	loc, why := parseOffset(s[p.i:])
	if why != "" {
		return time.Time{}, why
	}
	y, mo, d := day.Date()
	return time.Date(y, mo, d, hour, minute, second, nsec, loc), ""
}

// parseOffset reads the K of the format: Z, or ±hh:mm with hh 00 to 23.
func parseOffset(k string) (*time.Location, string) {
	const rule = "the offset must be Z or ±hh:mm"
	switch {
	case k == "":
		return nil, "the offset is mandatory"
	case k == "Z" || k == "+00:00":
		return time.UTC, ""
	case k == "-00:00":
		return nil, "UTC is written Z or +00:00"
	case k[0] == ' ':
		return nil, rule + " (in a URL, + is written %2b)"
	case len(k) != 6 || (k[0] != '+' && k[0] != '-') || k[3] != ':' ||
		!allDigits(k[1:3]) || !allDigits(k[4:6]):
		return nil, rule
	}
	hh, mm := atoi(k[1:3]), atoi(k[4:6])
	if hh > 23 || mm > 59 {
		return nil, fmt.Sprintf("%s with hh 00 to 23 and mm 00 to 59", rule)
	}
	off := (hh*60 + mm) * 60
	if k[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off), ""
}

func (t DateTime) String() string { return t.s }
func (t DateTime) IsZero() bool   { return t.s == "" }

// Time is the instant, in a fixed zone with the written offset (UTC for Z).
func (t DateTime) Time() time.Time {
	v, _ := parseDateTime(t.s)
	return v
}

// Date is the calendar date as written, in the value's own offset.
func (t DateTime) Date() Date {
	if t.s == "" {
		return Date{}
	}
	return Date{t.s[:10]}
}

func (t DateTime) MarshalText() ([]byte, error) { return []byte(t.s), nil }

func (t *DateTime) UnmarshalText(b []byte) error {
	v, err := ParseDateTime(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
