package storetest

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// RegistrySpecies checks how s keeps the species of flocks, issued tags
// and animals, which its records hold as a livestock.Species: each is
// stored with the spelling those columns have always held (Sheep, Goats,
// Deer, Cattle, Bison, Buffalo), whether the seed or a registration wrote
// it, and every read gives it back as written (deer, which have no tags,
// only as a flock's). A tag never issued reads as
// no tag and no flock species, though the look-up's joined columns are
// NULL. A spelling the store never writes is refused when read, as for
// movements (StoredSpecies).
func RegistrySpecies(t *testing.T, s store.Store, b Behind) {
	day := ymd(2024, 3, 1)
	species := storedSpellings
	// Per species a flock and, for each species with tags, a seeded
	// animal (number sp) and one registered (10 + sp), both wearing tags
	// issued to the flock. The last digit of a mark and of a tag is its
	// species.
	mark := func(sp livestock.Species) string { return fmt.Sprintf("2000%02d", sp) }
	tagOf := func(sp livestock.Species, n int) livestock.Tag {
		if sp.Bovine() {
			return livestock.MustCattleTag(mark(sp), n).Tag()
		}
		return tag(sp, fmt.Sprintf("UK0%s %05d", mark(sp), n))
	}
	seeded := func(sp livestock.Species) string { return tagOf(sp, int(sp)).String() }
	reg := func(sp livestock.Species) string { return tagOf(sp, 10+int(sp)).String() }
	animal := func(id string, sp livestock.Species) store.Animal {
		return store.Animal{Identifier: tag(sp, id), Species: sp, Sex: livestock.SexFemale, BirthDate: day, CPH: farmA, OnSince: day, State: livestock.StateRegistered}
	}
	tagged := maps.Clone(species)
	delete(tagged, livestock.SpeciesDeer)
	sd := store.Seed{Holdings: []livestock.Holding{{CPH: farmA, Type: livestock.HoldingProducer}}}
	for sp := range species {
		sd.Flocks = append(sd.Flocks, store.Flock{Mark: livestock.MustFlockMark(mark(sp)), Species: sp, CPH: farmA})
		if _, ok := tagged[sp]; !ok {
			continue
		}
		for _, id := range []string{seeded(sp), reg(sp)} {
			sd.Tags = append(sd.Tags, store.IssuedTag{Identifier: tag(sp, id), Mark: livestock.MustFlockMark(mark(sp)), Species: sp, IssuedOn: day})
		}
		sd.Animals = append(sd.Animals, animal(seeded(sp), sp))
	}
	_, err := s.Seed(ctx(t), sd)
	must(t, "Seed", err)
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for sp := range tagged {
			if err := tx.RegisterAnimal(c, animal(reg(sp), sp)); err != nil {
				return err
			}
		}
		return nil
	})

	for sp, want := range species {
		_, hasTags := tagged[sp]
		rows := []struct{ query, key string }{{"SELECT species FROM flocks WHERE mark = $1", mark(sp)}}
		if hasTags {
			rows = append(rows, []struct{ query, key string }{
				{"SELECT species FROM issued_tags WHERE identifier = $1", seeded(sp)},
				{"SELECT species FROM animals WHERE identifier = $1", seeded(sp)},
				{"SELECT species FROM animals WHERE identifier = $1", reg(sp)},
			}...)
		}
		for _, row := range rows {
			if got := b.Text(t, row.query, row.key); got != want {
				t.Errorf("%s [%s] = %q, want %q", row.query, row.key, got, want)
			}
		}
		f, err := s.Flock(ctx(t), livestock.MustFlockMark(mark(sp)))
		must(t, "Flock", err)
		if f.Species != sp {
			t.Errorf("%q: Flock reads species %q", want, store.SpeciesName(f.Species))
		}
		if !hasTags {
			continue
		}
		ids := []string{seeded(sp), reg(sp)}
		for _, id := range ids {
			a, err := s.Animal(ctx(t), id)
			must(t, "Animal", err)
			if a.Species != sp {
				t.Errorf("%q: Animal(%s) reads species %q", want, id, store.SpeciesName(a.Species))
			}
		}
		byID, err := s.AnimalsByID(ctx(t), ids)
		must(t, "AnimalsByID", err)
		for _, id := range ids {
			if byID[id].Species != sp {
				t.Errorf("%q: AnimalsByID reads %s's species %q", want, id, store.SpeciesName(byID[id].Species))
			}
		}
		inTx(t, s, func(c context.Context, tx store.Tx) error {
			l, err := tx.LookUpRegistration(c, reg(sp), store.Parents{BirthDam: seeded(sp), GeneticDam: seeded(sp), Sire: reg(sp)})
			if err != nil {
				return err
			}
			if l.Tag == nil || l.Tag.Species != sp || l.Flock.Species != sp || l.Dam == nil || l.Dam.Species != sp ||
				l.Sire == nil || l.Sire.Species != sp || l.GeneticDam == nil || l.GeneticDam.Species != sp {
				t.Errorf("%q: LookUpRegistration = %+v, want every species %q", want, l, want)
			}
			locked, err := tx.Animals(c, ids)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if locked[id].Species != sp {
					t.Errorf("%q: tx.Animals reads %s's species %q", want, id, store.SpeciesName(locked[id].Species))
				}
			}
			return nil
		})
	}
	on, err := s.AnimalsOn(ctx(t), farmA)
	must(t, "AnimalsOn", err)
	for _, a := range on {
		if sp := livestock.Species(a.Identifier.String()[len(a.Identifier.String())-1] - '0'); a.Species != sp {
			t.Errorf("AnimalsOn reads %s's species as %q, want %q", a.Identifier, store.SpeciesName(a.Species), species[sp])
		}
	}
	if len(on) != 2*len(tagged) {
		t.Errorf("AnimalsOn lists %d animals, want %d", len(on), 2*len(tagged))
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		l, err := tx.LookUpRegistration(c, "never issued", store.Parents{})
		if err != nil {
			return err
		}
		if l.Tag != nil || !l.Flock.Species.IsZero() || l.Dam != nil || l.Sire != nil {
			t.Errorf("LookUpRegistration of a tag never issued = %+v, want nothing", l)
		}
		return nil
	})

	// One column at a time, so that each read is refused for its own
	// column's spelling.
	sheep := livestock.SpeciesSheep
	b.Exec(t, "UPDATE issued_tags SET species = 'sheep' WHERE identifier = $1", reg(sheep))
	err = s.InTx(ctx(t), func(c context.Context, tx store.Tx) error {
		_, err := tx.LookUpRegistration(c, reg(sheep), store.Parents{})
		return err
	})
	if err == nil {
		t.Errorf("LookUpRegistration with a tag's species %q stored: no error", "sheep")
	}
	b.Exec(t, "UPDATE flocks SET species = 'sheep' WHERE mark = $1", mark(sheep))
	if _, err := s.Flock(ctx(t), livestock.MustFlockMark(mark(sheep))); err == nil || livestock.IsNotFound(err) {
		t.Errorf("Flock with species %q stored: %v, want an error", "sheep", err)
	}
	b.Exec(t, "UPDATE animals SET species = 'sheep' WHERE identifier = $1", seeded(sheep))
	if _, err := s.Animal(ctx(t), seeded(sheep)); err == nil || livestock.IsNotFound(err) {
		t.Errorf("Animal with species %q stored: %v, want an error", "sheep", err)
	}
	if _, err := s.AnimalsByID(ctx(t), []string{seeded(sheep)}); err == nil {
		t.Errorf("AnimalsByID with species %q stored: no error", "sheep")
	}
	err = s.InTx(ctx(t), func(c context.Context, tx store.Tx) error {
		_, err := tx.LookUpRegistration(c, "never issued", store.Parents{BirthDam: seeded(sheep)})
		return err
	})
	if err == nil {
		t.Errorf("LookUpRegistration with a dam's species %q stored: no error", "sheep")
	}
}
