package movements

import (
	"context"
	"fmt"
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// A move is often reported by both of its keepers: the source's off-move
// and the destination's on-move. The second report of a move is matched
// to the movement the first made, and applies nothing: it is recorded
// against that movement (Movement.Duplicates), which the review look-up
// then shows as isDuplicate with the second's requestId, and the request
// ends CompletedWarning with W004 (live 4023, "This transfer appears to
// be already in the system"), naming the first request. The movement is
// decided as it would have been without the second report: by its
// reviewer's review, or at once.
//
// The rule: a transfer (not a correction) reports again movement m when
// m is not undone or rejected, was reported from the other end, and has
// the same species, source, destination and transfer date and the very
// same animals: the same tags, and the same batch lines (number and
// total), at least one of either. A report that differs in any animal is
// not matched: the rules decide it, as any other (an animal in transit on
// m fails it).

// reportedAgain finds the movement t, the content of transfer req,
// reports again, and records req against it; ok is false when there is
// none. It locks the movement it matches after the job's own request, in
// the order of lockorder.go; every move job queues first on the lock on
// moves, so two reports of one move never miss each other.
//
// blind chooses which movements it matches: those awaiting their source's
// consent (consent.go), recorded without checking their animals, or the
// others. A report is matched to a blind movement only once its own
// checks have passed, so that the source's keeper reporting the move
// learns of each of their animals that cannot move; the others hold their
// animals, so a report is matched to them before its checks.
func (s *Service) reportedAgain(ctx context.Context, tx store.Tx, req *store.Request, t livestock.Transfer, blind bool) (out outcome, ok bool, err error) {
	if req.Type != store.RequestTransfer {
		return outcome{}, false, nil
	}
	dest := t.Destination.CPH
	if !t.Destination.MHS.IsZero() {
		h, err := tx.HoldingByMHS(ctx, t.Destination.MHS)
		if livestock.IsNotFound(err) {
			return outcome{}, false, nil
		}
		if err != nil {
			return outcome{}, false, err
		}
		dest = h.CPH
	}
	report := store.Movement{Species: req.Species, Source: t.Source, Destination: dest,
		TransferDate: t.TransferDate.Time(), ReportedBy: reportedBy(t)}
	for _, d := range t.Devices() {
		if !d.Value.Tag.IsZero() {
			report.Devices = append(report.Devices, store.MovementDevice{Identifier: d.Value.Tag})
		}
	}
	for _, b := range t.Batches() {
		report.Batches = append(report.Batches, store.MovementBatch{BatchNumber: b.Value.Number, AnimalTotal: b.Value.Total})
	}
	if len(report.Devices) == 0 && len(report.Batches) == 0 {
		return outcome{}, false, nil
	}
	other := store.SideDeparture
	if report.ReportedBy == store.SideDeparture {
		other = store.SideDestination
	}
	same, err := tx.MovementsOnRoute(ctx, report.Source, report.Destination, report.TransferDate, other)
	if err != nil {
		return outcome{}, false, err
	}
	for _, found := range same {
		if found.SourceReviews() != blind || !reportsAgain(report, found) {
			continue
		}
		m, err := tx.LockMovement(ctx, found.ID)
		if err != nil {
			return outcome{}, false, err
		}
		if !reportsAgain(report, m) { // decided since it was read
			continue
		}
		m.Duplicates = append(m.Duplicates, req.ID)
		if err := tx.UpdateMovement(ctx, m); err != nil {
			return outcome{}, false, err
		}
		req.UndoSupported = false
		req.Holdings = holdingList(t.Source, dest)
		return outcome{warns: []livestock.FieldError{againWarning(m)}}, true, nil
	}
	return outcome{}, false, nil
}

// reportsAgain says whether report, a movement not yet made, is m
// reported again from its other end (the rule above).
func reportsAgain(report, m store.Movement) bool {
	switch m.State {
	case store.MovementPendingReview, store.MovementCompleted, store.MovementAccepted:
	default:
		return false
	}
	if m.ReportedBy == report.ReportedBy || m.Species != report.Species || m.Source != report.Source ||
		m.Destination != report.Destination || !m.TransferDate.Equal(report.TransferDate) {
		return false
	}
	tags := func(m store.Movement) []string {
		out := make([]string, len(m.Devices))
		for i, d := range m.Devices {
			out[i] = d.Identifier.String()
		}
		slices.Sort(out)
		return out
	}
	lines := func(m store.Movement) []string {
		out := make([]string, len(m.Batches))
		for i, b := range m.Batches {
			out[i] = fmt.Sprintf("%s x %d", b.BatchNumber, b.AnimalTotal)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(tags(report), tags(m)) && slices.Equal(lines(report), lines(m))
}

// againWarning is the warning of a report matched to movement m. It names
// m's request, which the reporter may see (it concerns the end they act
// for), and says what becomes of the move.
func againWarning(m store.Movement) livestock.FieldError {
	then := "it is recorded"
	if m.State == store.MovementPendingReview {
		then = "it awaits the review of holding " + m.ReviewHolding.String() + "'s keeper"
	}
	return livestock.FieldError{Code: livestock.CodeReportedAgain, Source: "/content", Value: fmt.Sprint(m.RequestID),
		Message: fmt.Sprintf("this transfer appears to be already in the system: request %d reports the same move from the other end, and %s; this report applied nothing again", m.RequestID, then)}
}
