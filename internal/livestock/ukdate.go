package livestock

import (
	"strings"
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

// SpeciesNamed reads a species written the way either interface writes it
// (Sheep, Goats, cattle, …) in any letter case; the zero Species when it
// names none. It is for names Drover stored itself; requests are parsed
// strictly by ParseMovementSpecies and ParseRegistrationSpecies.
func SpeciesNamed(s string) Species {
	sp, err := ParseRegistrationSpecies(strings.ToLower(s))
	if err != nil {
		return Species(0)
	}
	return sp
}
