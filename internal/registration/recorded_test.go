package registration

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
)

// TestRecordedRegistration: an animal that came onto the register other
// than by a registration still answers with the live Animal's required
// registration: at the holding of the herd or flock its mark names, on its
// birth date, as category registration, and the same after it has moved.
// An animal whose mark names no herd is registered where it is.
func TestRecordedRegistration(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		inspector := b.user(sandbox.Inspector)
		want := func(cph, typ, date string) *recordRegistation {
			return &recordRegistation{Site: recordSite{Type: siteType{typ, siteTypes[typ]},
				Identifiers: []siteID{{Identifier: cph, Type: livestock.SiteHolding}}}, Date: date, Category: livestock.CategoryOther}
		}
		check := func(name, identifier string, w *recordRegistation) {
			t.Helper()
			rec, err := b.svc.AnimalRecord(b.ctx, inspector, identifier)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := cmp.Diff(w, rec.Registration); diff != "" {
				t.Errorf("%s: registration (-want +got):\n%s", name, diff)
			}
		}
		cow := tag(t, "442501", 1)
		check("a seeded cow", cow, want(farm1, "producer", sandbox.Since.AddDate(-4, 0, 0).Format(time.DateOnly)))

		const ewe = "UK0130181 00001"
		bornOn := sandbox.Since.Format(time.DateOnly)
		check("a seeded ewe", ewe, want(farm1, "producer", bornOn))
		err := b.store.InTx(b.ctx, func(ctx context.Context, tx store.Tx) error {
			return tx.MoveAnimals(ctx, []string{ewe}, livestock.MustCPH(otherFarm1), start)
		})
		if err != nil {
			t.Fatal(err)
		}
		check("the ewe once moved", ewe, want(farm1, "producer", bornOn))

		stray := tag(t, "999999", 7)
		err = b.store.InTx(b.ctx, func(ctx context.Context, tx store.Tx) error {
			return tx.RegisterAnimal(ctx, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesCattle, stray), Species: livestock.SpeciesCattle, Sex: livestock.SexMale,
				CPH: livestock.MustCPH(otherFarm1), OnSince: start, State: livestock.StateRegistered})
		})
		if err != nil {
			t.Fatal(err)
		}
		check("an imported animal of no known herd", stray, want(otherFarm1, "abattoir", start.Format(time.DateOnly)))

		// One whose birth date is known but not where: its birth is at a
		// site of type unknown, as the live shape requires a site.
		born := start.AddDate(-1, 0, 0)
		roamer := tag(t, "999999", 8)
		err = b.store.InTx(b.ctx, func(ctx context.Context, tx store.Tx) error {
			return tx.RegisterAnimal(ctx, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesCattle, roamer), Species: livestock.SpeciesCattle, Sex: livestock.SexMale,
				CPH: livestock.MustCPH(otherFarm1), BirthDate: born, OnSince: start, State: livestock.StateRegistered})
		})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := b.svc.AnimalRecord(b.ctx, inspector, roamer)
		if err != nil {
			t.Fatal(err)
		}
		unknown := &recordSite{Type: siteType{"unknown", siteTypes["unknown"]}, Identifiers: []siteID{}}
		if rec.Birth == nil || rec.Birth.Date != born.Format(time.DateOnly) || !cmp.Equal(rec.Birth.Site, unknown) {
			t.Errorf("an animal born elsewhere, not known where: birth %+v", rec.Birth)
		}
	})
}

// TestEmptyImportParentIsNone: an import parent sent with an empty
// identifier is none, as an empty registration parent is: it is neither
// stored nor shown.
func TestEmptyImportParentIsNone(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1 := b.user("keeper1")
		id := tag(t, "442501", 130)
		b.mustSubmit(k1, other(id, "cattle", "male").set("importParents", map[string]any{
			"sire": map[string]any{"identifier": ""}, "geneticDam": map[string]any{"identifier": "FR2"}}), false, "", 200)
		rec, err := b.svc.AnimalRecord(b.ctx, k1, id)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]parentRef{"geneticDam": {"FR2"}}, rec.ImportParents); diff != "" {
			t.Errorf("importParents (-want +got):\n%s", diff)
		}
	})
}
