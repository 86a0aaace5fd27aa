package livestock

import (
	"fmt"
	"slices"
	"strconv"
)

// Review is the receiving keeper's answer to a movement: what arrived.
type Review struct {
	Holding         CPH
	RequestID       int64 // the transfer request reviewed
	IsAccepted      bool  // false rejects the whole movement
	ArrivalDate     Date
	ArrivalGiven    bool // the review gave ArrivalDate; only a destination accepting must
	AnimalTotal     int  // the number of animals accepted
	TotalGiven      bool // the review gave AnimalTotal; the interface does not require it
	AcceptedDevices []Tag
	RejectedDevices []Tag
	AcceptedBatches []ReviewBatch
	RejectedBatches []ReviewBatch
}

// ReviewBatch is a batch named in a review: by the batchMovementId of
// one line of the movement (ID > 0, what the review look-up shows), by
// its batch number (every line of that number), or by both, which must
// agree. Whole says no animalTotal was given: the batch counts all the
// animals of the line, or of the number.
type ReviewBatch struct {
	ID        int64
	Number    BatchNumber
	HasNumber bool
	Total     int
	Whole     bool
}

// ReviewedMovement is what a review is checked against: the movement as
// it awaits review.
type ReviewedMovement struct {
	TransferDate Date
	Devices      []string    // printed tags
	Batches      []BatchLine // in the movement's order
	BatchIDs     []int64     // the batchMovementId of each of Batches
	// Unnamed is how many of its animals no tag or batch names: deer
	// known by a freeze brand alone, which no list can name. They go with
	// the movement: accepted when the review accepts it.
	Unnamed int
}

// ReviewOutcome is what a valid review decides.
type ReviewOutcome struct {
	Accepted      map[string]bool // tag → accepted
	BatchAccepted []int           // animals accepted of each batch, in the movement's order
	AnimalsIn     int             // animals accepted in all
	Unnamed       int             // of them, those no tag or batch names (ReviewedMovement.Unnamed)
}

// MaxJourneyDays is how many days after the transfer date an arrival may
// be: the live definition's default for its configurable maximum (21502).
const MaxJourneyDays = 1

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
	if r.ArrivalDate.DaysSince(m.TransferDate) > MaxJourneyDays {
		bad(CodeJourneyLong, at+"/arrivalDate", r.ArrivalDate.String(), "the arrival date is %d days after the transfer date %s: at most %d",
			r.ArrivalDate.DaysSince(m.TransferDate), m.TransferDate, MaxJourneyDays)
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
		named := map[string]bool{}
		for i, t := range tags {
			here := fmt.Sprintf("%s/%s/%d/tagNumber", at, list, i)
			switch {
			case !inMovement[t.String()]:
				bad(CodeReviewDevice, here, t.String(), "tag %s is not in the movement", t)
			case named[t.String()]:
				bad(CodeDeviceRepeated, here, t.String(), "tag %s is named twice in %s", t, list)
			}
			named[t.String()] = true
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
	lineRejected, numberRejected := checkReviewBatches(r, m, bad)

	out := ReviewOutcome{Accepted: map[string]bool{}}
	for _, d := range m.Devices {
		ok := r.IsAccepted && !rejected[d]
		out.Accepted[d] = ok
		if ok {
			out.AnimalsIn++
		}
	}
	if r.IsAccepted {
		out.Unnamed = m.Unnamed
		out.AnimalsIn += m.Unnamed
	}
	for i, b := range m.Batches {
		n := 0
		if r.IsAccepted {
			n = max(b.Total-lineRejected[i], 0)
			take := min(numberRejected[b.Number.String()], n)
			n -= take
			numberRejected[b.Number.String()] -= take
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

// checkReviewBatches checks each batch the review names against the
// movement's lines, and returns the animals rejected of each line (named
// by batchMovementId) and of each batch number (named by number only).
func checkReviewBatches(r Review, m ReviewedMovement, bad func(Code, string, string, string, ...any)) ([]int, map[string]int) {
	const at = "/content/reviewMovement"
	lineRejected, numberRejected := make([]int, len(m.Batches)), map[string]int{}
	named := map[int64]bool{}
	for _, l := range []struct {
		list  string
		items []ReviewBatch
	}{{"acceptedBatches", r.AcceptedBatches}, {"rejectedBatches", r.RejectedBatches}} {
		for i, b := range l.items {
			here := fmt.Sprintf("%s/%s/%d", at, l.list, i)
			rejecting := l.list == "rejectedBatches"
			if b.ID != 0 {
				line := slices.Index(m.BatchIDs, b.ID)
				id := strconv.FormatInt(b.ID, 10)
				switch {
				case line < 0 || line >= len(m.Batches):
					bad(CodeReviewDevice, here+"/batchMovementId", id, "batch line %d is not in the movement (see reviewBatches in the review look-up)", b.ID)
				case named[b.ID]:
					bad(CodeBatchLineTwice, here+"/batchMovementId", id, "batch line %d is named twice", b.ID)
				case b.HasNumber && b.Number != m.Batches[line].Number:
					bad(CodeReviewDevice, here+"/batchNumber", b.Number.String(), "batch line %d is of batch %s, not %s", b.ID, m.Batches[line].Number, b.Number)
				case !b.Whole && b.Total > m.Batches[line].Total:
					bad(CodeReviewTotal, here+"/animalTotal", itoa(b.Total), "batch line %d moved only %d animals", b.ID, m.Batches[line].Total)
				case rejecting && b.Whole:
					lineRejected[line] += m.Batches[line].Total
				case rejecting:
					lineRejected[line] += b.Total
				case !b.Whole:
					// Accepting some of a line rejects the rest of it.
					lineRejected[line] += m.Batches[line].Total - b.Total
				}
				named[b.ID] = true
				continue
			}
			total, ok := batchTotal(m.Batches, b.Number)
			switch {
			case !ok:
				bad(CodeReviewDevice, here+"/batchNumber", b.Number.String(), "batch %s is not in the movement", b.Number)
			case !b.Whole && b.Total > total:
				bad(CodeReviewTotal, here+"/animalTotal", itoa(b.Total), "batch %s moved only %d animals", b.Number, total)
			case rejecting && b.Whole:
				numberRejected[b.Number.String()] += total
			case rejecting:
				numberRejected[b.Number.String()] += b.Total
			case !b.Whole:
				numberRejected[b.Number.String()] += total - b.Total // accepting some rejects the rest
			}
		}
	}
	return lineRejected, numberRejected
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
