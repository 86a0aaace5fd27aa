package livestock

import (
	"fmt"
	"time"
)

// Date is a calendar date, YYYY-MM-DD, with no time of day and no zone: a
// date of birth, of death, of registration, of a transfer. The zero value is
// "no date"; it sorts before every other date.
type Date struct{ s string }

const dateRule = "YYYY-MM-DD, e.g. 2024-03-01"

// ParseDate accepts exactly YYYY-MM-DD for a date that exists on the
// calendar (no 2023-02-29, no 2024-04-31).
func ParseDate(s string) (Date, error) {
	if _, why := parseDateParts(s); why != "" {
		return Date{}, ruleError(CodeBadFormat, "date", s, why)
	}
	return Date{s}, nil
}

// EarliestDate is the first date the register holds: the registration
// interface's birth.year starts at 1900, and no animal alive or moved can
// have a date before it.
var EarliestDate = Date{"1900-01-01"}

// ParseRecordDate is ParseDate for a date the register keeps: one before
// EarliestDate is refused too. Go's zero time is 0001-01-01, so a record
// dated then was shown as no date at all.
func ParseRecordDate(s string) (Date, error) {
	d, err := ParseDate(s)
	if err == nil && d.Before(EarliestDate) {
		return Date{}, ruleError(CodeBadFormat, "date", s, "must be "+EarliestDate.String()+" or later: the register holds no earlier date")
	}
	return d, err
}

// parseDateParts reads YYYY-MM-DD and returns midnight UTC of that date, or
// why the text is not a date (a message naming the rule).
func parseDateParts(s string) (time.Time, string) {
	p := scanner{s: s}
	y, ok1 := p.digits(4)
	ok2 := p.lit("-")
	m, ok3 := p.digits(2)
	ok4 := p.lit("-")
	d, ok5 := p.digits(2)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !p.done() {
		return time.Time{}, "expected " + dateRule
	}
	year, month, day := atoi(y), atoi(m), atoi(d)
	if year < 1 {
		return time.Time{}, "the year must be 0001 or later" // the calendar has no year 0
	}
	if month < 1 || month > 12 {
		return time.Time{}, "the month must be 01 to 12"
	}
	t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if day < 1 || t.Day() != day {
		return time.Time{}, fmt.Sprintf("%s is not a day of the calendar", s)
	}
	return t, ""
}

// DateOf is the calendar date of t in t's own location, or the zero Date
// when the year is outside 0001 to 9999.
func DateOf(t time.Time) Date {
	if t.Year() < 1 || t.Year() > 9999 {
		return Date{}
	}
	return Date{t.Format(time.DateOnly)}
}

func (d Date) String() string { return d.s }
func (d Date) IsZero() bool   { return d.s == "" }

// Time is midnight UTC at the start of the date; the zero time.Time for the
// zero Date.
func (d Date) Time() time.Time {
	t, _ := parseDateParts(d.s)
	return t
}

func (d Date) Before(u Date) bool { return d.s < u.s }
func (d Date) After(u Date) bool  { return d.s > u.s }

// AddDays is the date n days later (earlier for negative n). The zero Date
// stays zero, and a result outside the years 0000 to 9999 is the zero Date.
func (d Date) AddDays(n int) Date {
	if d.s == "" || n > 4_000_000 || n < -4_000_000 {
		return Date{}
	}
	return DateOf(d.Time().AddDate(0, 0, n))
}

// DaysSince is the number of days from u to d: 6 from a Monday to the next
// Sunday, negative when u is later. Both must be non-zero.
func (d Date) DaysSince(u Date) int {
	return int((d.Time().Unix() - u.Time().Unix()) / (24 * 60 * 60))
}

func (d Date) MarshalText() ([]byte, error) { return []byte(d.s), nil }

func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
