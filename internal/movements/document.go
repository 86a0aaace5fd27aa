package movements

import (
	"fmt"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// readDocument checks a transfer's movement document and normalises it in
// place: its type is one of standing data documentType, given with its
// reference; its times are date-times; its transporter type and FCI code
// are in standing data (an earlier FCI code becomes the live one); the
// non-compliant devices are devices of the species. It returns the animal
// totals the document states, which the job holds to the movement's.
func (v *vocab) readDocument(species livestock.Species, doc *movementDocument, errs *fieldErrs) []livestock.Located[int] {
	const at = "/content/movementDocument"
	switch {
	case doc.DocumentType != nil && !v.docTypes[*doc.DocumentType]:
		errs.bad(livestock.CodeBadEnum, at+"/documentType", *doc.DocumentType, "not a document type (see /v1/StandingData/documentType)")
	case doc.DocumentType != nil && doc.MovementDocumentRef == nil:
		errs.bad(livestock.CodeMissing, at+"/movementDocumentRef", "", "documentType and movementDocumentRef are given together or not at all")
	case doc.DocumentType == nil && doc.MovementDocumentRef != nil:
		errs.bad(livestock.CodeMissing, at+"/documentType", "", "documentType and movementDocumentRef are given together or not at all")
	}
	var totals []livestock.Located[int]
	var times documentTimes
	instant := func(p string, s *string, into *time.Time) *string {
		if s == nil {
			return nil
		}
		t, _, err := livestock.ParseMovementTime(*s)
		if err != nil {
			errs.add(at+p, err)
			return s
		}
		*into = t.Time()
		return ptr(t.String())
	}
	if d := doc.DepartureDetail; d != nil {
		d.DepartureDateTime = instant("/departureDetail/departureDateTime", d.DepartureDateTime, &times.departure)
		d.LoadingDateTime = instant("/departureDetail/loadingDateTime", d.LoadingDateTime, &times.loading)
		if d.AnimalTotal != nil {
			totals = append(totals, livestock.Located[int]{Value: *d.AnimalTotal, At: at + "/departureDetail/animalTotal"})
		}
	}
	if d := doc.DestinationDetail; d != nil {
		d.ArrivalDateTime = instant("/destinationDetail/arrivalDateTime", d.ArrivalDateTime, &times.arrival)
		d.UnloadingDateTime = instant("/destinationDetail/unloadingDateTime", d.UnloadingDateTime, &times.unloading)
		if d.TotalAnimalsReceived != nil {
			totals = append(totals, livestock.Located[int]{Value: *d.TotalAnimalsReceived, At: at + "/destinationDetail/totalAnimalsReceived"})
		}
	}
	times.checkOrder(errs)
	if d := doc.TransportDetail; d != nil && d.TransporterType != nil && !v.transporter[*d.TransporterType] {
		errs.bad(livestock.CodeBadEnum, at+"/transportDetail/transporterType", *d.TransporterType, "not a transporter type (see /v1/StandingData/transporterType)")
	}
	if f := doc.FciDetail; f != nil {
		if c := f.MetFCIWithdrawalPeriodCode; c != nil {
			if code, ok := v.fci[*c]; ok {
				f.MetFCIWithdrawalPeriodCode = &code
			} else {
				errs.bad(livestock.CodeBadEnum, at+"/fciDetail/metFCIWithdrawalPeriodCode", *c, "not a code of /v1/StandingData/metFCIWithdrawalPeriod")
			}
		}
		for i := range f.NonCompliantDevices {
			readDevice(species, &f.NonCompliantDevices[i], fmt.Sprintf("%s/fciDetail/nonCompliantDevices/%d", at, i), errs)
		}
	}
	return totals
}

// documentTimes are the times a movement document gives (zero: not given).
type documentTimes struct {
	departure, loading, arrival, unloading time.Time
}

// checkOrder holds the times to the order the live catalogue does: loaded
// no later than the departure (21118), arrived after it (21116), unloaded
// no earlier than the arrival (21121).
func (d documentTimes) checkOrder(errs *fieldErrs) {
	const at = "/content/movementDocument"
	given := func(ts ...time.Time) bool { return !slices.ContainsFunc(ts, time.Time.IsZero) }
	stamp := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	if given(d.loading, d.departure) && d.loading.After(d.departure) {
		errs.bad(livestock.CodeDocumentTimes, at+"/departureDetail/loadingDateTime", stamp(d.loading),
			"the loading is after the departure ("+stamp(d.departure)+")")
	}
	if given(d.arrival, d.departure) && !d.arrival.After(d.departure) {
		errs.bad(livestock.CodeDocumentTimes, at+"/destinationDetail/arrivalDateTime", stamp(d.arrival),
			"the arrival is not after the departure ("+stamp(d.departure)+")")
	}
	if given(d.unloading, d.arrival) && d.unloading.Before(d.arrival) {
		errs.bad(livestock.CodeDocumentTimes, at+"/destinationDetail/unloadingDateTime", stamp(d.unloading),
			"the unloading is before the arrival ("+stamp(d.arrival)+")")
	}
}

// maxClockSkew is how far past the registry's clock a time the sender's
// software gives may be: a farm computer's clock drifts.
const maxClockSkew = 5 * time.Minute

// futureTimes refuses a transfer whose transferDate, or whose document's
// departure or arrival (the live catalogue's 21110 and 21113), is in the
// future. It runs at submission, against the clock: the job's rule on
// transferDate compares days, so a move dated later today passed it. A
// transferDate at 00:00:00 is a day (a plain date reads so, and clients
// write days so), left to the job's rule: in British Summer Time the UK's
// day begins at 23:00Z the evening before. d.model's document was
// normalised by readDocument.
func futureTimes(d decoded, now time.Time) []livestock.FieldError {
	var errs []livestock.FieldError
	at := d.at.Time()
	if h, m, s := at.Clock(); (h != 0 || m != 0 || s != 0) && at.After(now.Add(maxClockSkew)) {
		errs = append(errs, livestock.FieldError{Code: livestock.CodeDateFuture, Source: "/content/transferDate", Value: d.at.String(),
			Message: "the transfer date is in the future (now " + now.UTC().Format(time.RFC3339) + ")"})
	}
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
