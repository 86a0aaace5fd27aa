package livestock

import "fmt"

// Review is the receiving keeper's answer to a movement: what arrived.
type Review struct {
	Holding         CPH
	RequestID       int64 // the transfer request reviewed
	IsAccepted      bool  // false rejects the whole movement
	ArrivalDate     Date
	AnimalTotal     int  // the number of animals accepted
	TotalGiven      bool // the review gave AnimalTotal; the interface does not require it
	AcceptedDevices []Tag
	RejectedDevices []Tag
	AcceptedBatches []BatchLine
	RejectedBatches []BatchLine
}

// ReviewedMovement is what a review is checked against: the movement as
// it awaits review.
type ReviewedMovement struct {
	TransferDate Date
	Devices      []string    // printed tags
	Batches      []BatchLine // in the movement's order
}

// ReviewOutcome is what a valid review decides.
type ReviewOutcome struct {
	Accepted      map[string]bool // tag → accepted
	BatchAccepted []int           // animals accepted of each batch, in the movement's order
	AnimalsIn     int             // animals accepted in all
}

// CheckReview applies the review rules: every named tag and batch is in
// the movement, arrival is not before the transfer nor after today, and
// animalTotal is the number of animals the review accepts.
func CheckReview(r Review, m ReviewedMovement, today Date) (ReviewOutcome, []FieldError) {
	var errs []FieldError
	bad := func(code Code, at, value, format string, args ...any) {
		errs = append(errs, FieldError{Code: code, Source: at, Value: value, Message: fmt.Sprintf(format, args...)})
	}
	const at = "/content/reviewMovement"
	if r.ArrivalDate.Before(m.TransferDate) {
		bad(CodeArrivalBefore, at+"/arrivalDate", r.ArrivalDate.String(), "the arrival date is before the transfer date %s", m.TransferDate)
	}
	if r.ArrivalDate.After(today) {
		bad(CodeDateFuture, at+"/arrivalDate", r.ArrivalDate.String(), "the arrival date is after today (%s)", today)
	}
	inMovement := map[string]bool{}
	for _, d := range m.Devices {
		inMovement[d] = true
	}
	rejected := map[string]bool{}
	for list, tags := range map[string][]Tag{"acceptedDevices": r.AcceptedDevices, "rejectedDevices": r.RejectedDevices} {
		for i, t := range tags {
			if !inMovement[t.String()] {
				bad(CodeReviewDevice, fmt.Sprintf("%s/%s/%d/tagNumber", at, list, i), t.String(), "tag %s is not in the movement", t)
			}
			if list == "rejectedDevices" {
				rejected[t.String()] = true
			}
		}
	}
	for _, t := range r.AcceptedDevices {
		if rejected[t.String()] {
			bad(CodeReviewDevice, at+"/acceptedDevices", t.String(), "tag %s is both accepted and rejected", t)
		}
	}
	batchRejected := map[string]int{}
	for list, lines := range map[string][]BatchLine{"acceptedBatches": r.AcceptedBatches, "rejectedBatches": r.RejectedBatches} {
		for i, b := range lines {
			total, ok := batchTotal(m.Batches, b.Number)
			switch {
			case !ok:
				bad(CodeReviewDevice, fmt.Sprintf("%s/%s/%d/batchNumber", at, list, i), b.Number.String(), "batch %s is not in the movement", b.Number)
			case b.Total > total:
				bad(CodeReviewTotal, fmt.Sprintf("%s/%s/%d/animalTotal", at, list, i), itoa(b.Total), "batch %s moved only %d animals", b.Number, total)
			case list == "rejectedBatches":
				batchRejected[b.Number.String()] += b.Total
			}
		}
	}

	out := ReviewOutcome{Accepted: map[string]bool{}}
	for _, d := range m.Devices {
		ok := r.IsAccepted && !rejected[d]
		out.Accepted[d] = ok
		if ok {
			out.AnimalsIn++
		}
	}
	for _, b := range m.Batches {
		n := 0
		if r.IsAccepted {
			n = max(b.Total-batchRejected[b.Number.String()], 0)
			batchRejected[b.Number.String()] -= b.Total - n
		}
		out.BatchAccepted = append(out.BatchAccepted, n)
		out.AnimalsIn += n
	}
	if r.TotalGiven && r.AnimalTotal != out.AnimalsIn {
		bad(CodeReviewTotal, at+"/animalTotal", itoa(r.AnimalTotal),
			"animalTotal is %d but the review accepts %d animals", r.AnimalTotal, out.AnimalsIn)
	}
	if len(errs) > 0 {
		return ReviewOutcome{}, sortFieldErrors(errs)
	}
	return out, nil
}

// batchTotal is the number of animals a movement moved under batch n.
func batchTotal(batches []BatchLine, n BatchNumber) (int, bool) {
	total, found := 0, false
	for _, b := range batches {
		if b.Number == n {
			total += b.Total
			found = true
		}
	}
	return total, found
}

// sortFieldErrors orders errors by source, so answers do not depend on
// map iteration order.
func sortFieldErrors(errs []FieldError) []FieldError {
	for i := 1; i < len(errs); i++ {
		for j := i; j > 0 && errs[j].Source < errs[j-1].Source; j-- {
			errs[j], errs[j-1] = errs[j-1], errs[j]
		}
	}
	return errs
}
