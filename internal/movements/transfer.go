package movements

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// applyTransfer applies a transfer, or a correction of one, to the
// registry: the rules first; then a movement that awaits the destination's
// review, or, when no review is needed, animals placed on the destination.
func (s *Service) applyTransfer(ctx context.Context, tx store.Tx, req *store.Request) (outcome, error) {
	d, err := s.vocab.decodeTransfer(req.Content)
	if err != nil {
		return failed(fieldsOf(err)...)
	}
	t := d.t
	if ok, err := stillActs(ctx, tx, req.UserName, t.UserHolding); err != nil || !ok {
		return failedUnless(err, notActing("/content/userHolding", t.UserHolding.String(), "holding "+t.UserHolding.String()))
	}
	var prior *store.Movement    // the movement a correction replaces …
	var corrected *store.Request // … and the request whose version it replaces
	if req.Type == store.RequestCorrection {
		m, target, out, err := s.correctable(ctx, tx, req)
		if err != nil || m == nil {
			return out, err
		}
		prior, corrected = m, target
	}
	if out, ok, err := s.reportedAgain(ctx, tx, req, t, false); ok || err != nil {
		return out, err
	}
	exclude := int64(0)
	if prior != nil {
		exclude = prior.ID
	}
	f, err := s.transferFacts(ctx, tx, t, s.dateOf(req.RequestDate), exclude)
	if err != nil {
		return outcome{}, err
	}
	if prior != nil {
		if errs := unchanged(*prior, t, f); len(errs) > 0 {
			return failed(errs...)
		}
		if prior.State == store.MovementCompleted {
			asBefore(f, *prior)
		}
	}
	submitter, err := tx.UserByName(ctx, req.UserName)
	if err != nil {
		return outcome{}, err
	}
	if awaitsSource(submitter, f) {
		f = blind(f, t) // its animals are checked in the source keeper's review (consent.go)
	}
	errs, warns := livestock.CheckTransfer(t, f)
	if len(errs) > 0 {
		if !submitter.CanActFor(t.Source) {
			errs = discreet(errs, t)
		}
		return failed(errs...)
	}
	if out, ok, err := s.reportedAgain(ctx, tx, req, t, true); ok || err != nil {
		return out, err
	}
	m := store.Movement{ID: req.ID, RequestID: req.ID, UserName: req.UserName, Species: req.Species,
		Source: t.Source, Destination: f.Destination.CPH, TransferDate: t.TransferDate.Time(),
		AnimalCount: t.AnimalCount, Flags: t.Flags, Standstill: hasCode(warns, livestock.CodeStandstill), ReportedBy: reportedBy(t)}
	if prior != nil {
		m.ID = prior.ID
	}
	for _, d := range t.Devices() {
		if d.Value.Tag.IsZero() {
			continue // a deer known by its freezebrand: the register keeps no such animal to move
		}
		a := f.Animals[d.Value.Tag.String()]
		m.Devices = append(m.Devices, store.MovementDevice{Identifier: d.Value.Tag, RFID: d.Value.RFID,
			PriorCPH: a.Holding, PriorOnSince: a.OnSince.Time()})
	}
	for _, b := range t.Batches() {
		m.Batches = append(m.Batches, store.MovementBatch{BatchNumber: b.Value.Number, AnimalTotal: b.Value.Total})
	}
	if prior != nil && len(prior.Duplicates) > 0 {
		// The other end's report stands on this movement (V083): a
		// correction may change its animals, not make it another move.
		if !sameMove(*prior, m) {
			return failed(livestock.FieldError{Code: livestock.CodeNotCorrectable, Source: "/content/" + correctionTarget, Value: fmt.Sprint(req.TargetID),
				Message: reportedByBoth + ": a correction keeps its holdings and date, and at least one of its animals"})
		}
		m.Duplicates = prior.Duplicates
	}
	if prior != nil && prior.State == store.MovementCompleted {
		if err := moveBack(ctx, tx, *prior, true); err != nil { // correctable checked that it may
			return outcome{}, err
		}
	}
	// The other end's keeper reviews it (consent.go), or it applies now.
	if r := reviewer(submitter, *f.Source, *f.Destination); !r.IsZero() {
		m.State, m.ReviewHolding = store.MovementPendingReview, r
	} else if err := s.arrive(ctx, tx, &m, t.TransferDate); err != nil {
		return outcome{}, err
	}
	if prior != nil {
		err = tx.UpdateMovement(ctx, m)
		if err == nil {
			corrected.UndoSupported, corrected.UpdatedDate = false, s.stamp() // the correction carries the movement now
			err = tx.UpdateRequest(ctx, *corrected)
		}
	} else {
		err = tx.InsertMovement(ctx, m)
	}
	if err != nil {
		return outcome{}, err
	}
	// A move the other end's keeper reported too is not undone (V083), so
	// a correction that keeps those reports says so from the start.
	req.DocumentRef, req.UndoSupported = DocumentRef(m.ID), len(m.Duplicates) == 0
	req.Holdings = holdingList(t.Source, f.Destination.CPH)
	return outcome{warns: warns}, nil
}

// arrive completes a movement that needs no review: every animal is on
// the destination from the transfer date.
func (s *Service) arrive(ctx context.Context, tx store.Tx, m *store.Movement, on livestock.Date) error {
	m.State, m.ArrivalDate, m.ReviewHolding = store.MovementCompleted, on.Time(), livestock.CPH{}
	tags := make([]string, len(m.Devices))
	for i := range m.Devices {
		m.Devices[i].Outcome = "accepted"
		tags[i] = m.Devices[i].Identifier.String()
	}
	if err := tx.MoveAnimals(ctx, tags, m.Destination, on.Time()); err != nil {
		return err
	}
	for i := range m.Batches {
		m.Batches[i].Accepted = m.Batches[i].AnimalTotal
	}
	return nil
}

// correctable finds the movement a correction replaces. It must be the
// submitter's own and carry the version corrected, and either await review
// or have needed none, with its animals still where it left them: the
// correction then undoes it and applies again (live 4076 when it cannot).
func (s *Service) correctable(ctx context.Context, tx store.Tx, req *store.Request) (*store.Movement, *store.Request, outcome, error) {
	at := "/content/" + correctionTarget
	target, err := lockNamed(ctx, tx, req.ID, req.TargetID)
	if livestock.IsNotFound(err) {
		out, _ := failed(unknownTarget(at, req.TargetID))
		return nil, nil, out, nil
	}
	if err != nil {
		return nil, nil, outcome{}, err
	}
	refuse := func(msg string) (*store.Movement, *store.Request, outcome, error) {
		out, _ := failed(livestock.FieldError{Code: livestock.CodeNotCorrectable, Source: at, Value: fmt.Sprint(req.TargetID), Message: msg})
		return nil, nil, out, nil
	}
	if target.UserName != req.UserName {
		if _, hidden, err := hiddenFrom(ctx, tx, req.UserName, target); err != nil || hidden {
			out, err := failedUnless(err, unknownTarget(at, req.TargetID)) // notyours.go
			return nil, nil, out, err
		}
		return refuse("only the user who submitted a request may correct it")
	}
	if ok, err := s.stillActsForTarget(ctx, tx, req.UserName, target); err != nil || !ok {
		out, err := failedUnless(err, notActing(at, fmt.Sprint(req.TargetID), targetHolding(target)))
		return nil, nil, out, err
	}
	if !target.Status.Applied() || (target.Type != store.RequestTransfer && target.Type != store.RequestCorrection) {
		return refuse("only a successful transfer (or correction) can be corrected")
	}
	id, err := movementOf(ctx, tx, target)
	if err != nil {
		return nil, nil, outcome{}, err
	}
	m, err := tx.LockMovement(ctx, id)
	if livestock.IsNotFound(err) {
		return refuse(fmt.Sprintf("request %d made no movement: it reported again a move already in the system (W004), so there is nothing to correct", target.ID))
	}
	if err != nil {
		return nil, nil, outcome{}, err
	}
	// The movement's state first: the latest version of an undone or
	// reviewed movement is no better a target than the one named.
	switch {
	case m.State != store.MovementPendingReview && m.State != store.MovementCompleted:
		return refuse("the movement is " + string(m.State) + ": only a movement awaiting review, or one that needed none, can be corrected; " + instead(m.State))
	case m.RequestID != target.ID:
		return refuse(fmt.Sprintf("request %d was corrected since; correct request %d instead", target.ID, m.RequestID))
	case m.State == store.MovementCompleted && len(m.Duplicates) > 0:
		return refuse(reportedByBoth + ": it stands as both reported it")
	case m.State == store.MovementCompleted:
		no, err := takenBack(ctx, tx, m, req.UserName)
		if err != nil {
			return nil, nil, outcome{}, err
		}
		if no.msg != "" {
			return refuse("the movement could not be undone to correct it: " + no.msg)
		}
	}
	return &m, &target, outcome{}, nil
}

// asBefore shows f's animals of completed movement prior where they were
// before it, as the correction that replaces it will find them once it
// has put them back (moveBack).
func asBefore(f livestock.TransferFacts, prior store.Movement) {
	for _, d := range prior.Devices {
		tag := d.Identifier.String()
		if a, ok := f.Animals[tag]; ok {
			a.Holding, a.OnSince = d.PriorCPH, livestock.DateOf(d.PriorOnSince)
			f.Animals[tag] = a
		}
	}
}

// unchanged holds a correction to what the live service allows it to
// change (4077: "the species and user holding cannot be changed"): the
// species, the reporting end's holding and that end itself stay; the
// animals, the date, the details and the other end may change. A move
// sent to the wrong holding is corrected as the live service does: the
// movement then awaits the review the new holding needs, or none.
func unchanged(prior store.Movement, t livestock.Transfer, f livestock.TransferFacts) []livestock.FieldError {
	var errs []livestock.FieldError
	bad := func(at, value, was string) {
		errs = append(errs, livestock.FieldError{Code: livestock.CodeCorrectionChanges, Source: at, Value: value,
			Message: "a correction keeps the movement's " + strings.TrimPrefix(at, "/content/") + " (" + was + "): undo the transfer and send a new one instead"})
	}
	if t.Species != prior.Species {
		bad("/content/species", t.Species.String(), prior.Species.String())
	}
	side := reportedBy(t)
	switch {
	case side != prior.ReportedBy:
		bad("/content/userHolding", t.UserHolding.String(), "the "+strings.ToLower(string(prior.ReportedBy))+" holding")
	case side == store.SideDeparture && t.Source != prior.Source:
		bad("/content/sourceHolding", t.Source.String(), prior.Source.String())
	case side == store.SideDestination && f.Destination != nil && f.Destination.CPH != prior.Destination:
		bad("/content/destinationHolding", f.Destination.CPH.String(), prior.Destination.String())
	}
	return errs
}

// instead says what a sender may do with a movement it cannot correct:
// ask its reviewer to undo the review, send again one undone already, or
// else undo it and send it again.
func instead(state store.MovementState) string {
	switch state {
	case store.MovementAccepted, store.MovementRejected:
		return "it was reviewed: the reviewing keeper may undo the review, after which it can be undone and sent again"
	case store.MovementUndone:
		return "it was undone: send the transfer again"
	}
	return "undo it and send the transfer again"
}

func hasCode(errs []livestock.FieldError, c livestock.Code) bool {
	return slices.ContainsFunc(errs, func(e livestock.FieldError) bool { return e.Code == c })
}

func fieldsOf(err error) []livestock.FieldError {
	if e, ok := err.(*livestock.Error); ok && len(e.Fields) > 0 {
		return e.Fields
	}
	return []livestock.FieldError{{Code: livestock.CodeSchema, Message: err.Error()}}
}
