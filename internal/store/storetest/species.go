package storetest

import (
	"context"
	"maps"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// storedSpellings are the species columns' spellings, written out here
// rather than taken from store.SpeciesName so that a change to that table
// shows as a failure of what is already stored.
var storedSpellings = map[livestock.Species]string{
	livestock.SpeciesSheep: "Sheep", livestock.SpeciesGoats: "Goats", livestock.SpeciesDeer: "Deer",
	livestock.SpeciesCattle: "Cattle", livestock.SpeciesBison: "Bison", livestock.SpeciesBuffalo: "Buffalo",
}

// withNone is spellings and the zero Species, spelled "".
func withNone(spellings map[livestock.Species]string) map[livestock.Species]string {
	m := maps.Clone(spellings)
	m[0] = ""
	return m
}

// StoredSpecies checks how s keeps the species of requests and movements,
// which its records hold as a livestock.Species: each is stored with the
// spelling the columns have always held (Sheep, Goats, Deer, and Cattle,
// Bison, Buffalo as tracing data has them; "" for none, a review's request
// before its job), reads back as written, selects by that spelling, and
// is written back unchanged by an update. A spelling the store never
// writes is refused when read, not taken for a near match that an update
// would then write back spelled otherwise.
func StoredSpecies(t *testing.T, s store.Store, b Behind) {
	day := ymd(2026, 3, 1)
	for sp, want := range withNone(storedSpellings) {
		r := transfer("keeper1", farmA, farmB)
		r.Species = sp
		m := pending(farmB, sp, day)
		inTx(t, s, func(c context.Context, tx store.Tx) (err error) {
			if m.ID, err = tx.InsertRequest(c, r); err != nil {
				return err
			}
			return tx.InsertMovement(c, m)
		})
		stored := func(when string) {
			t.Helper()
			for _, table := range []string{"requests", "movements"} {
				if got := b.Text(t, "SELECT species FROM "+table+" WHERE id = $1", m.ID); got != want {
					t.Errorf("%q %s: %s.species = %q, want %q", want, when, table, got, want)
				}
			}
		}
		stored("inserted")

		gotR, err := s.Request(ctx(t), m.ID)
		must(t, "Request", err)
		gotM, err := s.Movement(ctx(t), m.ID)
		must(t, "Movement", err)
		if gotR.Species != sp || gotM.Species != sp {
			t.Errorf("%q: read back as request %q, movement %q", want, store.SpeciesName(gotR.Species), store.SpeciesName(gotM.Species))
		}
		reviews, err := s.PendingReviews(ctx(t), store.ReviewQuery{Holding: farmB, Species: sp})
		must(t, "PendingReviews", err)
		if !containsMovement(reviews, m.ID) {
			t.Errorf("%q: PendingReviews by its species does not find movement %d", want, m.ID)
		}
		inTx(t, s, func(c context.Context, tx store.Tx) error {
			arrivals, err := tx.ArrivalsOn(c, farmB, day, day)
			if err != nil {
				return err
			}
			for _, a := range arrivals {
				if a.MovementID == m.ID && a.Species != sp {
					t.Errorf("%q: ArrivalsOn reads species %q", want, store.SpeciesName(a.Species))
				}
			}
			r, err := tx.LockRequest(c, m.ID)
			if err != nil {
				return err
			}
			if err := tx.UpdateRequest(c, r); err != nil {
				return err
			}
			mv, err := tx.LockMovement(c, m.ID)
			if err != nil {
				return err
			}
			return tx.UpdateMovement(c, mv)
		})
		stored("updated")
	}

	id := addMovement(t, s, pending(farmB, livestock.SpeciesSheep, day))
	for _, table := range []string{"requests", "movements"} {
		b.Exec(t, "UPDATE "+table+" SET species = 'sheep' WHERE id = $1", id)
	}
	if _, err := s.Request(ctx(t), id); err == nil || livestock.IsNotFound(err) {
		t.Errorf("Request with species %q stored: %v, want an error", "sheep", err)
	}
	if _, err := s.Movement(ctx(t), id); err == nil || livestock.IsNotFound(err) {
		t.Errorf("Movement with species %q stored: %v, want an error", "sheep", err)
	}
}

func containsMovement(list []store.Movement, id int64) bool {
	for _, m := range list {
		if m.ID == id {
			return true
		}
	}
	return false
}
