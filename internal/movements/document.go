package movements

import (
	"fmt"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// readDocument checks a transfer's movement document and normalises it in
// place: its type is one of standing data documentType, given with its
// reference; its times are date-times, in order (checkOrder); its
// transporter type and FCI code are in standing data (an earlier FCI code
// becomes the live one); the non-compliant devices are devices of the
// species. It returns the animal totals the document states, which the
// job holds to the movement's.
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
	given := func(a, b time.Time) bool { return !a.IsZero() && !b.IsZero() }
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
