package livestock

import "fmt"

// StandstillDays is how long, after animals arrive on a holding in
// England, no cattle, sheep or goats may leave it: day 1 is the day after
// the arrival, so an arrival on a Monday frees the holding the following
// Monday.
const StandstillDays = 6

// Arrival is animals arriving on a holding, as the standstill rule sees it.
type Arrival struct {
	Date    Date
	Species Species
	Flags   []string // the arriving movement's processingFlags
}

// Departure is a movement off a holding, as the standstill rule sees it.
type Departure struct {
	Date            Date
	Species         Species
	Flags           []string
	SourceType      HoldingType
	DestinationType HoldingType
}

// Standstill decides whether a departure breaches the standstill that
// arrivals put on its source holding. exempt reports whether a
// processingFlags code exempts a move (standing data says which do).
//
// Drover's reading of the rules in domain-notes §4:
//   - an arrival of cattle, sheep or goats starts a standstill on the day
//     it arrives, unless its own flags exempt it (into an isolation unit,
//     from common land to the home holding, …); deer start none;
//   - a departure on the arrival day or within the 6 days after it
//     breaches, unless the departure is exempt: an exempting flag, deer,
//     direct to an abattoir, to or from a licensed gathering (sale yard,
//     showground, assembly or collection centre), or to or from common land.
//
// It returns the first arrival breached. A breach is a warning, never
// grounds to refuse the report: refusing would lose the trace.
func Standstill(d Departure, arrivals []Arrival, exempt func(flag string) bool) (Arrival, bool) {
	if departureExempt(d, exempt) {
		return Arrival{}, false
	}
	for _, a := range arrivals {
		if !startsStandstill(a, exempt) {
			continue
		}
		if !d.Date.Before(a.Date) && d.Date.Before(a.Date.AddDays(StandstillDays+1)) {
			return a, true
		}
	}
	return Arrival{}, false
}

// StandstillWarning is the warning (W001) for a departure from source
// that breaches its standstill, at the transfer date; breach is false
// when it does not.
func StandstillWarning(source CPH, d Departure, arrivals []Arrival, exempt func(flag string) bool) (w FieldError, breach bool) {
	a, breach := Standstill(d, arrivals, exempt)
	if !breach {
		return FieldError{}, false
	}
	return FieldError{Code: CodeStandstill, Source: "/content/transferDate", Value: d.Date.String(),
		Message: fmt.Sprintf("%s is under standstill until %s: animals arrived on %s; no exemption code applies",
			source, a.Date.AddDays(StandstillDays+1), a.Date)}, true
}

func departureExempt(d Departure, exempt func(string) bool) bool {
	if d.Species == SpeciesDeer || anyExempt(d.Flags, exempt) {
		return true
	}
	for _, t := range []HoldingType{d.SourceType, d.DestinationType} {
		switch t {
		case HoldingSaleYard, HoldingShowground, HoldingAssemblyCentre, HoldingCollectionCentre, HoldingCommonLand:
			return true
		}
	}
	return d.DestinationType == HoldingAbattoir
}

func startsStandstill(a Arrival, exempt func(string) bool) bool {
	switch a.Species {
	case SpeciesSheep, SpeciesGoats, SpeciesCattle, SpeciesBison, SpeciesBuffalo:
		return !anyExempt(a.Flags, exempt)
	}
	return false
}

func anyExempt(flags []string, exempt func(string) bool) bool {
	for _, f := range flags {
		if exempt != nil && exempt(f) {
			return true
		}
	}
	return false
}
