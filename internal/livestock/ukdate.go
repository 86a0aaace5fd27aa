package livestock

import (
	"time"
	_ "time/tzdata" // the UK's zone, on machines without a zone database
)

// ukZone is the registry's calendar: movement and registration dates are
// UK dates, so "today" turns at midnight in London, not UTC.
var ukZone = func() *time.Location {
	if loc, err := time.LoadLocation("Europe/London"); err == nil {
		return loc
	}
	return time.UTC
}()

// UKDate is the UK calendar date of the instant t.
func UKDate(t time.Time) Date { return DateOf(t.In(ukZone)) }

// StartsADay reports whether the instant t is midnight, to the
// nanosecond, in UTC or in the UK: the two ways a client writes a day as a
// date-time (T00:00:00Z, or T00:00:00 with the UK's offset of that day).
// Midnight in any other offset is an instant like any other: written as
// 2026-11-30T00:00:00+01:00 in November, it is 23:00 on the 29th in the UK.
func StartsADay(t time.Time) bool {
	midnight := func(t time.Time) bool {
		h, m, s := t.Clock()
		return h == 0 && m == 0 && s == 0 && t.Nanosecond() == 0
	}
	return midnight(t.UTC()) || midnight(t.In(ukZone))
}

// UKDayStart is the instant the UK day d begins: midnight in London, so
// that the instants t with UKDate(t) == d are those from UKDayStart(d) up
// to UKDayStart of the next day.
func UKDayStart(d Date) time.Time {
	y, m, day := d.Time().Date()
	return time.Date(y, m, day, 0, 0, 0, 0, ukZone)
}
