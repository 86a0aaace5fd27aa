package sandbox

import (
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// addFlocks adds the keeper's sheep and goat flocks, each with 25 tagged
// animals, and the deer herd, which has no tags.
func (k Keeper) addFlocks(s *store.Seed) error {
	cph := k.ProducerCPH()
	for _, f := range []struct {
		species livestock.Species
		marks   []string
	}{{livestock.SpeciesSheep, k.SheepMarks}, {livestock.SpeciesGoats, k.GoatMarks}} {
		for _, mark := range f.marks {
			s.Flocks = append(s.Flocks, store.Flock{Mark: livestock.MustFlockMark(mark), Species: f.species, CPH: cph})
			for n := 1; n <= tagsPerFlock; n++ {
				id, err := flockTag(f.species, mark, n)
				if err != nil {
					return err
				}
				s.Tags = append(s.Tags, store.IssuedTag{Identifier: id, Mark: id.Mark(), Species: f.species, IssuedOn: Since})
				s.Animals = append(s.Animals, store.Animal{Identifier: id, Species: f.species, Sex: sexOf(n),
					BirthDate: Since, CPH: cph, OnSince: Since, State: livestock.StateRegistered})
			}
		}
	}
	s.Flocks = append(s.Flocks, store.Flock{Mark: livestock.MustFlockMark(k.DeerMark), Species: livestock.SpeciesDeer, CPH: cph})
	return k.addMarketLot(s)
}

// addMarketLot adds the sheep of the keeper's MarketMark flock, registered
// on the producer holding, that are at the sale yard.
func (k Keeper) addMarketLot(s *store.Seed) error {
	s.Flocks = append(s.Flocks, store.Flock{Mark: livestock.MustFlockMark(k.MarketMark), Species: livestock.SpeciesSheep, CPH: k.ProducerCPH()})
	for n := 1; n <= MarketLot; n++ {
		id, err := flockTag(livestock.SpeciesSheep, k.MarketMark, n)
		if err != nil {
			return err
		}
		s.Tags = append(s.Tags, store.IssuedTag{Identifier: id, Mark: id.Mark(), Species: livestock.SpeciesSheep, IssuedOn: Since})
		s.Animals = append(s.Animals, store.Animal{Identifier: id, Species: livestock.SpeciesSheep, Sex: sexOf(n),
			BirthDate: Since, CPH: k.SaleYardCPH(), OnSince: Since, State: livestock.StateRegistered})
	}
	return nil
}

// flockTag is tag n of a flock: UK0130181 00001.
func flockTag(species livestock.Species, mark string, n int) (livestock.Tag, error) {
	return livestock.ParseTag(species, fmt.Sprintf("UK0%s %05d", mark, n))
}

// addHerd adds the keeper's cattle herd: cows 00001–00005 registered and
// usable as dams, numbers 00101–00150 issued to the herd for calves.
func (k Keeper) addHerd(s *store.Seed) error {
	cph := k.ProducerCPH()
	s.Flocks = append(s.Flocks, store.Flock{Mark: livestock.MustFlockMark(k.HerdMark), Species: livestock.SpeciesCattle, CPH: cph})
	born := Since.AddDate(-4, 0, 0)
	for n := 1; n <= lastIssued; n++ {
		if n > cowsPerHerd && n < firstIssued {
			continue
		}
		tag, err := livestock.NewCattleTag(k.HerdMark, n)
		if err != nil {
			return err
		}
		id := tag.Tag()
		if n <= cowsPerHerd {
			s.Tags = append(s.Tags, store.IssuedTag{Identifier: id, Mark: id.Mark(), Species: livestock.SpeciesCattle, IssuedOn: born})
			s.Animals = append(s.Animals, store.Animal{Identifier: id, Species: livestock.SpeciesCattle, Sex: livestock.SexFemale,
				BirthDate: born, CPH: cph, OnSince: born, State: livestock.StateRegistered})
			continue
		}
		s.Tags = append(s.Tags, store.IssuedTag{Identifier: id, Mark: id.Mark(), Species: livestock.SpeciesCattle, IssuedOn: Since})
	}
	return nil
}

// sexOf gives most of a flock's animals as female, with a male every fifth.
func sexOf(n int) livestock.Sex {
	if n%5 == 0 {
		return livestock.SexMale
	}
	return livestock.SexFemale
}
