package movements

import (
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// reviewContent is the review payload on the wire, in the live
// ReviewHoldingMovementModel shape; it is also the shape stored and shown
// by $expand=content.
type reviewContent struct {
	Holding         string             `json:"holding"`
	ReviewMovement  reviewMovementWire `json:"reviewMovement"`
	ID              *int64             `json:"id,omitempty"`
	TrackingID      *string            `json:"trackingId,omitempty"`
	ProcessingFlags []reviewFlag       `json:"processingFlags,omitempty"`
}

type reviewMovementWire struct {
	RequestID int64 `json:"requestId"`
	// IsAccepted may be null or absent: the lists then decide it (see
	// acceptedOf). It is stored decided.
	IsAccepted      *bool             `json:"isAccepted"`
	ArrivalDate     string            `json:"arrivalDate,omitempty"`
	AnimalTotal     *int              `json:"animalTotal,omitempty"`
	AcceptedDevices []reviewDeviceTag `json:"acceptedDevices,omitempty"`
	RejectedDevices []reviewDeviceTag `json:"rejectedDevices,omitempty"`
	AcceptedBatches []reviewBatchWire `json:"acceptedBatches,omitempty"`
	RejectedBatches []reviewBatchWire `json:"rejectedBatches,omitempty"`
}

// reviewDeviceTag is a device named in a review (live Device): by its tag
// number, its RFID, or, for an animal that has no tag, its freeze brand.
type reviewDeviceTag struct {
	TagNumber   *string `json:"tagNumber,omitempty"`
	RFID        *string `json:"rfid,omitempty"`
	Freezebrand *string `json:"freezebrand,omitempty"`
}

// reviewBatchWire is a batch named in a review (live ReviewBatch): by the
// batchMovementId the review look-up shows, or by its batch number.
type reviewBatchWire struct {
	BatchMovementID *int64  `json:"batchMovementId,omitempty"`
	BatchNumber     *string `json:"batchNumber,omitempty"`
	IDMark          *string `json:"idMark,omitempty"`
	StockType       *string `json:"stockType,omitempty"`
	AnimalTotal     *int    `json:"animalTotal,omitempty"`
}

// undoContent is the undo payload on the wire.
type undoContent struct {
	RequestToBeUndone int64 `json:"requestToBeUndone_ID"`
}

// decodeReview reads a review payload. Tags are read by the species of
// the movement reviewed, which only the job knows; here any sheep or goat
// form is accepted and normalised.
func decodeReview(content []byte) (livestock.Review, reviewContent, error) {
	var w reviewContent
	if err := decodeStrict(content, &w); err != nil {
		return livestock.Review{}, w, err
	}
	var r livestock.Review
	var errs fieldErrs
	var err error
	if r.Holding, err = livestock.ParseCPH(w.Holding); err != nil {
		errs.add("/content/holding", err)
	}
	readTrackingID(&w.TrackingID, &errs)
	errs = append(errs, checkReviewFlags(w.ProcessingFlags)...)
	rm := &w.ReviewMovement
	const at = "/content/reviewMovement"
	r.RequestID = rm.RequestID
	if rm.AnimalTotal != nil {
		r.AnimalTotal, r.TotalGiven = *rm.AnimalTotal, true
	}
	if r.RequestID < 1 {
		errs = append(errs, livestock.FieldError{Code: livestock.CodeMissing, Source: at + "/requestId", Message: "the request to review is required"})
	}
	// The live catalogue forbids an arrival date where the departure's
	// keeper reviews or the review rejects (21505, 21507) and the schema
	// requires one: it is read when given, and required only where a
	// destination accepts, which the movement decides (arrivalRequired).
	if rm.ArrivalDate != "" {
		r.ArrivalGiven = true
		if r.ArrivalDate, rm.ArrivalDate, err = reviewDate(rm.ArrivalDate); err != nil {
			errs.add(at+"/arrivalDate", err)
		}
	}
	devices := func(list string, in []reviewDeviceTag) []livestock.Tag {
		var out []livestock.Tag
		for i := range in {
			t, err := reviewDevice(&in[i])
			if err != nil {
				errs.add(fmt.Sprintf("%s/%s/%d/tagNumber", at, list, i), err)
				continue
			}
			out = append(out, t)
		}
		return out
	}
	r.AcceptedDevices = devices("acceptedDevices", rm.AcceptedDevices)
	r.RejectedDevices = devices("rejectedDevices", rm.RejectedDevices)
	batches := func(list string, in []reviewBatchWire) []livestock.ReviewBatch {
		var out []livestock.ReviewBatch
		for i := range in {
			b, err := reviewBatch(&in[i])
			if err != nil {
				errs.add(fmt.Sprintf("%s/%s/%d/%s", at, list, i, err.field), err.err)
				continue
			}
			out = append(out, b)
		}
		return out
	}
	r.AcceptedBatches = batches("acceptedBatches", rm.AcceptedBatches)
	r.RejectedBatches = batches("rejectedBatches", rm.RejectedBatches)
	accepted, ok := acceptedOf(rm)
	if !ok {
		errs = append(errs, livestock.FieldError{Code: livestock.CodeMissing, Source: at + "/isAccepted",
			Message: "isAccepted is required when the review names no accepted or rejected devices or batches"})
	}
	if ok && !accepted {
		errs = append(errs, rejectionAccepts(rm)...)
	}
	r.IsAccepted, rm.IsAccepted = accepted, &accepted
	return r, w, errs.err()
}

// rejectionAccepts is what a rejecting review says it accepts, which the
// live catalogue refuses at once: accepted devices or batches (21375), or
// an animalTotal other than 0 (21504; a client generated from the live
// definition, where the member is a plain integer, sends 0). An
// arrivalDate is allowed, as that definition makes every client send one.
func rejectionAccepts(rm *reviewMovementWire) []livestock.FieldError {
	const at = "/content/reviewMovement"
	var errs []livestock.FieldError
	if nd, nb := len(rm.AcceptedDevices), len(rm.AcceptedBatches); nd+nb > 0 {
		list := "/acceptedDevices"
		if nd == 0 {
			list = "/acceptedBatches"
		}
		errs = append(errs, livestock.FieldError{Code: livestock.CodeRejectAccepts, Source: at + list,
			Message: fmt.Sprintf("a review that rejects the movement accepts nothing, but this one names %d accepted batches and %d accepted devices", nb, nd)})
	}
	if rm.AnimalTotal != nil && *rm.AnimalTotal != 0 {
		errs = append(errs, livestock.FieldError{Code: livestock.CodeRejectTotal, Source: at + "/animalTotal", Value: fmt.Sprint(*rm.AnimalTotal),
			Message: "a review that rejects the movement accepts no animals: give animalTotal 0, or none"})
	}
	return errs
}

// acceptedOf is what a review decides: isAccepted when given; when it is
// null or absent, the live rule that ties it to the lists — accepted when
// acceptedDevices or acceptedBatches names anything, rejected when only
// the rejected lists do. With no lists either nothing says what arrived:
// not ok.
func acceptedOf(rm *reviewMovementWire) (accepted, ok bool) {
	switch {
	case rm.IsAccepted != nil:
		return *rm.IsAccepted, true
	case len(rm.AcceptedDevices) > 0 || len(rm.AcceptedBatches) > 0:
		return true, true
	case len(rm.RejectedDevices) > 0 || len(rm.RejectedBatches) > 0:
		return false, true
	}
	return false, false
}

// reviewDate reads an arrival date: the live date-time
// (yyyy-MM-ddTHH:mm:ssK) or a plain date, and returns its day and the
// date-time form stored. The day is the UK calendar's, as a transfer
// date's is (livestock.ParseMovementTime): 01:00+05:00 on the 28th is the
// evening of the 27th, and is compared with the transfer as such.
func reviewDate(s string) (livestock.Date, string, error) {
	if len(s) < len("2006-01-02") {
		d, err := livestock.ParseRecordDate(s)
		return d, s, err
	}
	dt, d, err := livestock.ParseMovementTime(s)
	if err != nil {
		return livestock.Date{}, s, err
	}
	return d, dt.String(), nil
}

// reviewDevice reads a device named in a review, and rewrites its tag
// number in the printed form and its RFID in decimal. A freeze brand is
// kept as given.
func reviewDevice(d *reviewDeviceTag) (livestock.Tag, error) {
	tagText := strings.TrimSpace(deref(d.TagNumber))
	if rfidText := deref(d.RFID); rfidText != "" {
		rfid, err := livestock.ParseRFID(rfidText)
		if err != nil {
			return livestock.Tag{}, err
		}
		printed, ok := rfid.Printed()
		switch {
		case !ok:
			return livestock.Tag{}, livestock.Invalid("", livestock.FieldError{Code: livestock.CodeBadFormat,
				Message: "the rfid is not of a UK sheep or goat tag", Value: rfidText})
		case tagText == "":
			tagText = printed
		}
	}
	if tagText == "" {
		msg := "a device is named by its tagNumber or its rfid"
		if deref(d.Freezebrand) != "" {
			msg = "a device is named by its tagNumber or its rfid: Drover records the devices of a movement by tag, not by freeze brand"
		}
		return livestock.Tag{}, livestock.Invalid("", livestock.FieldError{Code: livestock.CodeMissing, Message: msg})
	}
	t, err := reviewTag(tagText)
	if err != nil {
		return t, err
	}
	if rfidText := deref(d.RFID); rfidText != "" {
		given, _ := livestock.ParseRFID(rfidText)
		if own, ok := t.RFID(); !ok || own != given {
			return livestock.Tag{}, livestock.Invalid("", livestock.FieldError{Code: livestock.CodeBadFormat,
				Message: fmt.Sprintf("the rfid %s is not that of tag %s", rfidText, t), Value: rfidText})
		}
	}
	printed := t.String()
	d.TagNumber = &printed
	if own, ok := t.RFID(); ok {
		dec := own.Decimal()
		d.RFID = &dec
	}
	return t, nil
}

// reviewTag reads a sheep tag, or failing that a goat tag (which also
// takes the six-digit form), or a cattle ear tag. The job reads it again by
// the movement's species (tagFor), which only it knows: some texts are the
// tag of a sheep and of a bovine alike.
func reviewTag(s string) (livestock.Tag, error) {
	t, err := livestock.ParseTag(livestock.SpeciesSheep, s)
	if err == nil {
		return t, nil
	}
	for _, sp := range []livestock.Species{livestock.SpeciesGoats, livestock.SpeciesCattle} {
		if o, oerr := livestock.ParseTag(sp, s); oerr == nil {
			return o, nil
		}
	}
	return livestock.Tag{}, err
}

// tagFor is t, a tag a review named, as a tag of species: a bovine's tag
// written as a sheep's is read again from its digits. A text that is no
// tag of species stays as it was read, and names no device of the
// movement.
func tagFor(t livestock.Tag, species livestock.Species) livestock.Tag {
	if t.Species() == species || t.Species().Bovine() == species.Bovine() {
		return t
	}
	if o, err := livestock.ParseTag(species, strings.ReplaceAll(t.String(), " ", "")); err == nil {
		return o
	}
	return t
}

// batchProblem is why a review batch cannot be read, and the member at fault.
type batchProblem struct {
	field string
	err   error
}

// reviewBatch reads a batch named in a review and rewrites its batch
// number in the normal form. It must be named by batchMovementId or by
// batchNumber; an animalTotal left out means the whole line (or batch).
// A batchMovementId of 0 is one not given, as a client generated from the
// live definition (where the member is a plain int32) sends it when it
// names the batch by number; it is dropped from the stored content.
func reviewBatch(b *reviewBatchWire) (livestock.ReviewBatch, *batchProblem) {
	var out livestock.ReviewBatch
	if b.BatchMovementID != nil && *b.BatchMovementID == 0 {
		b.BatchMovementID = nil
	}
	if b.BatchMovementID != nil {
		if *b.BatchMovementID < 1 {
			return out, &batchProblem{"batchMovementId", livestock.Invalid("", livestock.FieldError{Code: livestock.CodeBadFormat,
				Value: fmt.Sprint(*b.BatchMovementID), Message: "a batchMovementId is a number from the review look-up (0 when not given)"})}
		}
		out.ID = *b.BatchMovementID
	}
	if b.BatchNumber != nil && (*b.BatchNumber != "" || out.ID == 0) {
		n, err := livestock.ParseBatchNumber(*b.BatchNumber)
		if err != nil {
			return out, &batchProblem{"batchNumber", err}
		}
		s := n.String()
		b.BatchNumber, out.Number, out.HasNumber = &s, n, true
	}
	if out.ID == 0 && !out.HasNumber {
		return out, &batchProblem{"batchMovementId", livestock.Invalid("", livestock.FieldError{Code: livestock.CodeMissing,
			Message: "a batch is named by its batchMovementId (from the review look-up) or its batchNumber"})}
	}
	if b.AnimalTotal == nil {
		out.Whole = true
	} else {
		out.Total = *b.AnimalTotal
	}
	return out, nil
}
