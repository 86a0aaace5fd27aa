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
