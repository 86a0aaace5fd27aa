package tracing

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Resident is an animal that was on a holding over some days: its record
// as it is now, and its stay there.
type Resident struct {
	Animal store.Animal
	Stay   Stay
}

// Residents lists the animals with a stay on holding that shares a day
// with [from, to], by identifier then arrival. An animal there in those
// days is either there still or has left since from, so the candidates are
// the animals on it now and those of its departures since from: the cost
// is the holding's stock and its traffic since from, whatever the size of
// the registry.
func (s *Service) Residents(ctx context.Context, holding livestock.CPH, from, to time.Time) ([]Resident, error) {
	on, err := s.st.AnimalsOn(ctx, holding)
	if err != nil {
		return nil, err
	}
	animals := make(map[string]store.Animal, len(on))
	for _, a := range on {
		animals[a.Identifier.String()] = a
	}
	out, err := s.st.MovementsFrom(ctx, []livestock.CPH{holding}, from, never)
	if err != nil {
		return nil, err
	}
	if err := s.st.FillMovements(ctx, out); err != nil {
		return nil, err
	}
	var left []string
	for _, m := range out {
		for _, d := range m.Devices {
			if _, ok := animals[d.Identifier.String()]; !ok {
				left = append(left, d.Identifier.String())
			}
		}
	}
	if len(left) > 0 {
		more, err := s.st.AnimalsByID(ctx, left)
		if err != nil {
			return nil, err
		}
		for id, a := range more {
			animals[id] = a
		}
	}
	return s.residents(ctx, animals, holding, from, to)
}

// residents keeps, of animals, those with a stay on holding sharing a day
// with [from, to].
func (s *Service) residents(ctx context.Context, animals map[string]store.Animal, holding livestock.CPH, from, to time.Time) ([]Resident, error) {
	ids := make([]string, 0, len(animals))
	for id := range animals {
		ids = append(ids, id)
	}
	moves, err := s.movesOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	var list []Resident
	for _, id := range ids {
		var here []Stay
		for _, st := range Stays(animals[id], moves[id]) {
			if st.Holding == holding && st.Overlaps(from, to) {
				here = append(here, st)
			}
		}
		for _, st := range Joined(here) { // left and came back the same day: once
			list = append(list, Resident{Animal: animals[id], Stay: st})
		}
	}
	slices.SortFunc(list, func(a, b Resident) int {
		if c := strings.Compare(a.Animal.Identifier.String(), b.Animal.Identifier.String()); c != 0 {
			return c
		}
		return a.Stay.From.Compare(b.Stay.From)
	})
	return list, nil
}

// movesOf reads the movements of ids, by identifier.
func (s *Service) movesOf(ctx context.Context, ids []string) (map[string][]store.Movement, error) {
	by := make(map[string][]store.Movement, len(ids))
	if len(ids) == 0 {
		return by, nil
	}
	moves, err := s.st.AnimalMovements(ctx, ids)
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	for _, m := range moves {
		for _, d := range m.Devices {
			if want[d.Identifier.String()] {
				by[d.Identifier.String()] = append(by[d.Identifier.String()], m)
			}
		}
	}
	return by, nil
}

// Register is what was on a holding on one day: the tagged animals, and
// the batch animals by species.
type Register struct {
	Holding livestock.CPH
	Day     time.Time
	Animals []Resident
	// Batches is, by species, the batch animals the holding's movements
	// brought on less those they took off, by Day, never below zero: batch
	// animals have no identity, and those born there and never moved are
	// in no record.
	Batches map[livestock.Species]int
}

// RegisterOn answers a holding's register on day.
func (s *Service) RegisterOn(ctx context.Context, holding livestock.CPH, day time.Time) (Register, error) {
	animals, err := s.Residents(ctx, holding, day, day)
	if err != nil {
		return Register{}, err
	}
	flows, err := s.st.BatchBalance(ctx, holding, day)
	if err != nil {
		return Register{}, err
	}
	r := Register{Holding: holding, Day: day, Animals: animals, Batches: map[livestock.Species]int{}}
	for species, f := range flows {
		if n := f.In - f.Out; n > 0 {
			r.Batches[species] = n
		}
	}
	return r, nil
}
