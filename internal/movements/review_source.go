package movements

import (
	"context"
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// sourceChecks applies the animal rules to the tags accepted, of a
// movement the source's keeper consents to. Its reporter did not act for
// the source, so the movement was recorded without them (blind): an
// animal not registered, not of the movement's species, not on the source
// since the transfer date, born after it, or in another movement awaiting
// review, is taken out of accepted and named in a warning to the
// reviewer, who keeps it. The others record where they were before.
func (s *Service) sourceChecks(ctx context.Context, tx store.Tx, m *store.Movement, accepted map[string]bool) ([]livestock.FieldError, error) {
	var tags []string
	for _, d := range m.Devices {
		if accepted[d.Identifier.String()] {
			tags = append(tags, d.Identifier.String())
		}
	}
	if len(tags) == 0 {
		return nil, nil
	}
	animals, err := tx.Animals(ctx, tags)
	if err != nil {
		return nil, err
	}
	moving, err := tx.InTransit(ctx, tags)
	if err != nil {
		return nil, err
	}
	on := livestock.DateOf(m.TransferDate)
	var warns []livestock.FieldError
	for i := range m.Devices {
		d := &m.Devices[i]
		tag := d.Identifier.String()
		if !accepted[tag] {
			continue
		}
		a, ok := animals[tag]
		why := ""
		switch {
		case !ok:
			why = "no animal wears it"
		case a.State != livestock.StateRegistered:
			why = "the animal is recorded " + a.State.String()
		case a.Species != m.Species:
			why = "the animal is of species " + store.SpeciesName(a.Species)
		case moving[tag] != 0 && moving[tag] != m.ID:
			why = fmt.Sprintf("the animal is in movement %d, which awaits review", moving[tag])
		case a.MovementRestricted:
			why = "the animal may not leave its holding: it was registered after the statutory limit and has no passport"
		case a.CPH != m.Source || livestock.DateOf(a.OnSince).After(on):
			why = fmt.Sprintf("the animal is not on %s on %s (it is on %s since %s)", m.Source, on, a.CPH, livestock.DateOf(a.OnSince))
		case !a.BirthDate.IsZero() && on.Before(livestock.DateOf(a.BirthDate)):
			why = fmt.Sprintf("the animal was born on %s, after the transfer date", livestock.DateOf(a.BirthDate))
		}
		if why != "" {
			accepted[tag] = false
			warns = append(warns, livestock.FieldError{Code: livestock.CodeDeviceNotOnSource, Source: "/content/reviewMovement", Value: tag,
				Message: fmt.Sprintf("tag %s was not moved: %s", d.Identifier, why)})
			continue
		}
		d.PriorCPH, d.PriorOnSince = a.CPH, a.OnSince
	}
	return warns, nil
}

// sourceStandstill decides the standstill of a movement the source's
// keeper accepts: its reporter, who did not act for the source, was told
// nothing of the source's arrivals (blind). A breach marks the movement and
// is a warning to the reviewer, whose holding it concerns.
func (s *Service) sourceStandstill(ctx context.Context, tx store.Tx, m *store.Movement) ([]livestock.FieldError, error) {
	source, err := tx.Holding(ctx, m.Source)
	if err != nil {
		return nil, err
	}
	destination, err := tx.Holding(ctx, m.Destination)
	if err != nil {
		return nil, err
	}
	on := livestock.DateOf(m.TransferDate)
	arrivals, err := arrivalsBefore(ctx, tx, m.Source, on, m.ID)
	if err != nil {
		return nil, err
	}
	d := livestock.Departure{Date: on, Species: m.Species, Flags: m.Flags, SourceType: source.Type, DestinationType: destination.Type}
	w, breach := livestock.StandstillWarning(m.Source, d, arrivals, func(c string) bool { return s.vocab.flags[c].exempt })
	m.Standstill = breach
	if !breach {
		return nil, nil
	}
	w.Source = "/content/reviewMovement"
	return []livestock.FieldError{w}, nil
}
