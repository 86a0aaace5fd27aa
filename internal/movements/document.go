package movements

import (
	"fmt"

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
	instant := func(p string, s *string) *string {
		if s == nil {
			return nil
		}
		t, _, err := livestock.ParseMovementTime(*s)
		if err != nil {
			errs.add(at+p, err)
			return s
		}
		return ptr(t.String())
	}
	if d := doc.DepartureDetail; d != nil {
		d.DepartureDateTime = instant("/departureDetail/departureDateTime", d.DepartureDateTime)
		d.LoadingDateTime = instant("/departureDetail/loadingDateTime", d.LoadingDateTime)
		if d.AnimalTotal != nil {
			totals = append(totals, livestock.Located[int]{Value: *d.AnimalTotal, At: at + "/departureDetail/animalTotal"})
		}
	}
	if d := doc.DestinationDetail; d != nil {
		d.ArrivalDateTime = instant("/destinationDetail/arrivalDateTime", d.ArrivalDateTime)
		d.UnloadingDateTime = instant("/destinationDetail/unloadingDateTime", d.UnloadingDateTime)
		if d.TotalAnimalsReceived != nil {
			totals = append(totals, livestock.Located[int]{Value: *d.TotalAnimalsReceived, At: at + "/destinationDetail/totalAnimalsReceived"})
		}
	}
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
