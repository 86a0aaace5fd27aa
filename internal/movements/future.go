package movements

import (
	"fmt"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// maxClockSkew is how far past the registry's clock a time the sender's
// software gives may be: a farm computer's clock drifts.
const maxClockSkew = 5 * time.Minute

// future reports whether at is past now beyond the clock skew allowed,
// unless at starts a day (livestock.StartsADay): a day is the job's to
// compare, in the UK calendar.
func future(at, now time.Time) bool {
	return !livestock.StartsADay(at) && at.After(now.Add(maxClockSkew))
}

// futureTimes refuses a transfer whose transferDate, or whose document's
// departure or arrival (the live catalogue's 21110 and 21113), is in the
// future. It runs at submission, against the clock; the job's rule on
// transferDate compares days only. A transferDate at midnight in UTC or in
// the UK is a day (a plain date reads so, and clients write days so), left
// to the job's rule: in British Summer Time the UK's day begins at 23:00Z
// the evening before. d.model's document was normalised by readDocument.
func futureTimes(d decoded, now time.Time) []livestock.FieldError {
	var errs []livestock.FieldError
	if future(d.at.Time(), now) {
		errs = append(errs, livestock.FieldError{Code: livestock.CodeDateFuture, Source: "/content/transferDate", Value: d.at.String(),
			Message: "the transfer date is in the future (now " + now.UTC().Format(time.RFC3339) + ")"})
	}
	errs = append(errs, futureBirths(d.model, now)...)
	doc := d.model.MovementDocument
	if doc == nil {
		return errs
	}
	check := func(p string, s *string) {
		if s == nil {
			return
		}
		if t, err := livestock.ParseDateTime(*s); err == nil && t.Time().After(now.Add(maxClockSkew)) {
			errs = append(errs, livestock.FieldError{Code: livestock.CodeDateFuture, Source: "/content/movementDocument" + p, Value: *s,
				Message: "the time is in the future (now " + now.UTC().Format(time.RFC3339) + ")"})
		}
	}
	if d := doc.DepartureDetail; d != nil {
		check("/departureDetail/departureDateTime", d.DepartureDateTime)
	}
	if d := doc.DestinationDetail; d != nil {
		check("/destinationDetail/arrivalDateTime", d.ArrivalDateTime)
	}
	return errs
}

// futureBirths refuses a birth period, or a date the tags were applied,
// after today in the UK (the live catalogue's 8038 and 8039): no animal
// is born or tagged in the future. Days are compared, as these are dates.
func futureBirths(m transferModel, now time.Time) []livestock.FieldError {
	today := livestock.UKDate(now.Add(maxClockSkew))
	var errs []livestock.FieldError
	check := func(at string, s *string, what string) {
		if s == nil {
			return
		}
		if _, day, err := livestock.ParseMovementTime(*s); err == nil && day.After(today) {
			errs = append(errs, livestock.FieldError{Code: livestock.CodeDateFuture, Source: at, Value: *s,
				Message: what + " is after today, " + today.String() + " in the UK"})
		}
	}
	for g, group := range m.MovementGroups {
		for i, x := range group.DevicesWithDetail {
			at := fmt.Sprintf("/content/movementGroups/%d/devicesWithDetail/%d", g, i)
			if x.dob {
				check(at+"/dateOfBirth", x.BeginBirthPeriod, "the date of birth")
				continue
			}
			check(at+"/beginBirthPeriod", x.BeginBirthPeriod, "the birth period's beginning")
			check(at+"/endBirthPeriod", x.EndBirthPeriod, "the birth period's end")
		}
	}
	if a := m.DeviceApplication; a != nil {
		const at = "/content/deviceApplication"
		check(at+"/dateOfApplication", a.DateOfApplication, "the date the tags were applied")
		check(at+"/beginBirthPeriod", a.BeginBirthPeriod, "the birth period's beginning")
		check(at+"/endBirthPeriod", a.EndBirthPeriod, "the birth period's end")
	}
	return errs
}
