package movements

import (
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
)

// reviewContent is the review payload on the wire (domain-notes §1).
type reviewContent struct {
	Holding        string `json:"holding"`
	ReviewMovement struct {
		RequestID       int64       `json:"requestId"`
		IsAccepted      bool        `json:"isAccepted"`
		ArrivalDate     string      `json:"arrivalDate"`
		AnimalTotal     *int        `json:"animalTotal,omitempty"`
		AcceptedDevices []tagWire   `json:"acceptedDevices,omitempty"`
		RejectedDevices []tagWire   `json:"rejectedDevices,omitempty"`
		AcceptedBatches []batchWire `json:"acceptedBatches,omitempty"`
		RejectedBatches []batchWire `json:"rejectedBatches,omitempty"`
	} `json:"reviewMovement"`
}

type tagWire struct {
	TagNumber string `json:"tagNumber"`
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
	rm := &w.ReviewMovement
	const at = "/content/reviewMovement"
	r.RequestID, r.IsAccepted = rm.RequestID, rm.IsAccepted
	if rm.AnimalTotal != nil {
		r.AnimalTotal, r.TotalGiven = *rm.AnimalTotal, true
	}
	if r.RequestID < 1 {
		errs = append(errs, livestock.FieldError{Code: livestock.CodeMissing, Source: at + "/requestId", Message: "the request to review is required"})
	}
	if r.ArrivalDate, err = livestock.ParseRecordDate(rm.ArrivalDate); err != nil {
		errs.add(at+"/arrivalDate", err)
	}
	tags := func(list string, in []tagWire) []livestock.Tag {
		var out []livestock.Tag
		for i := range in {
			t, err := reviewTag(in[i].TagNumber)
			if err != nil {
				errs.add(fmt.Sprintf("%s/%s/%d/tagNumber", at, list, i), err)
				continue
			}
			in[i].TagNumber = t.String()
			out = append(out, t)
		}
		return out
	}
	r.AcceptedDevices = tags("acceptedDevices", rm.AcceptedDevices)
	r.RejectedDevices = tags("rejectedDevices", rm.RejectedDevices)
	batches := func(list string, in []batchWire) []livestock.BatchLine {
		var out []livestock.BatchLine
		for i := range in {
			n, err := livestock.ParseBatchNumber(in[i].BatchNumber)
			if err != nil {
				errs.add(fmt.Sprintf("%s/%s/%d/batchNumber", at, list, i), err)
				continue
			}
			in[i].BatchNumber = n.String()
			out = append(out, livestock.BatchLine{Number: n, Total: in[i].AnimalTotal})
		}
		return out
	}
	r.AcceptedBatches = batches("acceptedBatches", rm.AcceptedBatches)
	r.RejectedBatches = batches("rejectedBatches", rm.RejectedBatches)
	return r, w, errs.err()
}

// reviewTag reads a sheep tag, or failing that a goat tag (which also
// takes the six-digit form).
func reviewTag(s string) (livestock.Tag, error) {
	t, err := livestock.ParseTag(livestock.SpeciesSheep, s)
	if err == nil {
		return t, nil
	}
	if g, gerr := livestock.ParseTag(livestock.SpeciesGoats, s); gerr == nil {
		return g, nil
	}
	return livestock.Tag{}, err
}
