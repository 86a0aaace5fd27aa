package movements

import (
	"context"
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// transferFacts reads, inside the applying transaction, every record the
// transfer rules look at. exclude is the movement being corrected, whose
// own animals and arrivals do not count against it.
func (s *Service) transferFacts(ctx context.Context, tx store.Tx, t livestock.Transfer, today livestock.Date, exclude int64) (livestock.TransferFacts, error) {
	f := livestock.TransferFacts{
		Today:        today,
		Animals:      map[string]livestock.AnimalRecord{},
		FlockSpecies: map[livestock.FlockMark]livestock.Species{},
		KnownFlag:    func(c string) bool { return s.vocab.knownFlag(c, t.Species) },
		ExemptFlag:   func(c string) bool { return s.vocab.flags[c].exempt },
	}
	var err error
	if f.Source, err = optional(tx.Holding(ctx, t.Source)); err != nil {
		return f, err
	}
	if t.Destination.MHS.IsZero() {
		f.Destination, err = optional(tx.Holding(ctx, t.Destination.CPH))
	} else {
		f.Destination, err = optional(tx.HoldingByMHS(ctx, t.Destination.MHS))
	}
	if err != nil {
		return f, err
	}

	var tags []string
	for _, d := range t.Devices() {
		if !d.Value.Tag.IsZero() {
			tags = append(tags, d.Value.Tag.String())
		}
	}
	animals, err := tx.Animals(ctx, tags)
	if err != nil {
		return f, err
	}
	tags = tags[:0]
	for tag, a := range animals {
		f.Animals[tag] = livestock.AnimalRecord{Species: a.Species, Holding: a.CPH, Restricted: a.MovementRestricted,
			OnSince: livestock.DateOf(a.OnSince), Born: livestock.DateOf(a.BirthDate), State: a.State}
		tags = append(tags, tag)
	}
	moving, err := tx.InTransit(ctx, tags)
	if err != nil {
		return f, err
	}
	for tag, movement := range moving {
		if movement != exclude {
			a := f.Animals[tag]
			a.InTransit = true
			f.Animals[tag] = a
		}
	}

	for _, b := range t.Batches() {
		mark := b.Value.Number.Mark()
		if mark.IsZero() {
			continue
		}
		if fl, err := tx.Flock(ctx, mark); err == nil {
			f.FlockSpecies[mark] = fl.Species
		} else if !livestock.IsNotFound(err) {
			return f, err
		}
	}

	f.Arrivals, err = arrivalsBefore(ctx, tx, t.Source, t.TransferDate, exclude)
	return f, err
}

// arrivalsBefore reads the arrivals on holding that could put a departure
// on date under standstill, but for movement exclude's.
func arrivalsBefore(ctx context.Context, tx store.Tx, holding livestock.CPH, date livestock.Date, exclude int64) ([]livestock.Arrival, error) {
	arrivals, err := tx.ArrivalsOn(ctx, holding, date.AddDays(-livestock.StandstillDays).Time(), date.Time())
	if err != nil {
		return nil, err
	}
	var out []livestock.Arrival
	for _, a := range arrivals {
		if a.MovementID != exclude {
			out = append(out, livestock.Arrival{Date: livestock.DateOf(a.Date), Species: a.Species, Flags: slices.Clone(a.Flags)})
		}
	}
	return out, nil
}

// optional turns a not-found holding into nil.
func optional(h livestock.Holding, err error) (*livestock.Holding, error) {
	if livestock.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &h, nil
}
