package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// registered is an animal with every registration detail set, its dates
// given at a time of day (a store keeps the date only).
func registered(identifier string) store.Animal {
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 15, 4, 5, 6000, time.UTC) }
	return store.Animal{
		Identifier: tag(livestock.SpeciesSheep, identifier), Species: livestock.SpeciesSheep, Sex: livestock.SexFemale, BirthDate: at(2026, 3, 2),
		CPH: farmA, OnSince: at(2026, 3, 2), State: livestock.StateRegistered,
		Name: "Bramble", ProductionType: "Dairy", Breed: "TEX", BirthSite: farmA.String(),
		BirthDam: "UK0100001 00001", GeneticDam: "UK0100001 00003", Sire: "UK0100001 00004",
		OriginalIdentifier: "IE1234567", IdentificationDate: at(2026, 3, 9), RegistrationDate: at(2026, 3, 10),
		ReceivedDate: base, DeathDate: at(2026, 4, 1), Category: "birthRegistration",
		MovementRestricted: true, RestrictionReason: "late registration", RegisteredBy: "keeper1",
		Record: []byte(`{"identifier":"` + identifier + `"}`),
	}
}

// storedAnimal is a as a store returns it: dates at midnight UTC.
func storedAnimal(a store.Animal) store.Animal {
	day := func(t time.Time) time.Time {
		if t.IsZero() {
			return t
		}
		return ymd(t.Year(), t.Month(), t.Day())
	}
	a.BirthDate, a.OnSince = day(a.BirthDate), day(a.OnSince)
	a.IdentificationDate, a.RegistrationDate, a.DeathDate = day(a.IdentificationDate), day(a.RegistrationDate), day(a.DeathDate)
	a.ReceivedDate = stored(a.ReceivedDate)
	return a
}

func testRegisterAnimal(t *testing.T, s store.Store) {
	c := ctx(t)
	_, err := s.Seed(c, fixture())
	must(t, "Seed", err)
	full := registered("UK0100001 00002")
	bare := store.Animal{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00005"), Species: livestock.SpeciesSheep, Sex: livestock.SexMale,
		BirthDate: ymd(2026, 3, 1), CPH: farmB, OnSince: ymd(2026, 3, 1), State: livestock.StateRegistered}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for _, a := range []store.Animal{full, bare} {
			if err := tx.RegisterAnimal(c, a); err != nil {
				return err
			}
		}
		// The transaction reads its own writes.
		if got, err := tx.Animals(c, []string{full.Identifier.String()}); err != nil || !cmp.Equal(storedAnimal(full), got[full.Identifier.String()], cmpOpts) {
			t.Errorf("tx.Animals after RegisterAnimal = %+v, %v; want %+v", got, err, storedAnimal(full))
		}
		return nil
	})
	for _, a := range []store.Animal{full, bare} {
		got, err := s.Animal(c, a.Identifier.String())
		must(t, "Animal", err)
		if diff := cmp.Diff(storedAnimal(a), got, cmpOpts); diff != "" {
			t.Errorf("Animal(%q) (-want +got):\n%s", a.Identifier, diff)
		}
	}

	// An identifier registered already, by a registration or by the seed,
	// is a conflict that leaves the transaction usable.
	again := registered(full.Identifier.String())
	again.Name, again.CPH = "Other", farmB
	seeded := registered("UK0100001 00001")
	next := registered("UK0100001 00006")
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		wantKind(t, "RegisterAnimal of a registered identifier", tx.RegisterAnimal(c, again), livestock.KindConflict)
		wantKind(t, "RegisterAnimal of a seeded identifier", tx.RegisterAnimal(c, seeded), livestock.KindConflict)
		return tx.RegisterAnimal(c, next)
	})
	if a, err := s.Animal(c, full.Identifier.String()); err != nil || a.Name != full.Name || a.CPH != farmA {
		t.Errorf("Animal after a conflict = %+v, %v; want it unchanged", a, err)
	}
	if a, err := s.Animal(c, next.Identifier.String()); err != nil || !cmp.Equal(storedAnimal(next), a, cmpOpts) {
		t.Errorf("Animal registered after a conflict = %+v, %v; want %+v", a, err, storedAnimal(next))
	}
}

// testSeededAnimal checks that an animal the seed wrote has no
// registration details.
func testSeededAnimal(t *testing.T, s store.Store) {
	c := ctx(t)
	sd := fixture()
	_, err := s.Seed(c, sd)
	must(t, "Seed", err)
	a := sd.Animals[0]
	want := store.Animal{Identifier: a.Identifier, Species: a.Species, Sex: a.Sex,
		BirthDate: a.BirthDate, CPH: a.CPH, OnSince: a.OnSince, State: a.State}
	got, err := s.Animal(c, want.Identifier.String())
	must(t, "Animal", err)
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Errorf("seeded Animal (-want +got):\n%s", diff)
	}
}

// testLookUpRegistration checks the one statement a registration's rules
// read: each tag with its flock, registered or not, and each parent
// present or absent.
func testLookUpRegistration(t *testing.T, s store.Store) {
	c := ctx(t)
	sd := fixture()
	_, err := s.Seed(c, sd)
	must(t, "Seed", err)
	dam := sd.Animals[0]
	wantDam := placeOf(dam)
	isRegistered := func(id string) bool {
		return slices.ContainsFunc(sd.Animals, func(a store.Animal) bool { return a.Identifier.String() == id })
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for _, want := range sd.Tags {
			i := slices.IndexFunc(sd.Flocks, func(f store.Flock) bool { return f.Mark == want.Mark })
			l, err := tx.LookUpRegistration(c, want.Identifier.String(), store.Parents{BirthDam: dam.Identifier.String()})
			wantL := store.RegistrationLookup{Registered: isRegistered(want.Identifier.String()), Tag: &want, Flock: sd.Flocks[i], Dam: wantDam}
			if err != nil || !cmp.Equal(wantL, l, cmpOpts) {
				t.Errorf("tx.LookUpRegistration(%q, dam) = %+v, %v; want %+v", want.Identifier, l, err, wantL)
			}
		}
		// Never issued, with a sire and no dam, then with a genetic dam
		// alone, then with a dam nobody registered.
		l, err := tx.LookUpRegistration(c, "UK0100001 09999", store.Parents{Sire: dam.Identifier.String()})
		if want := (store.RegistrationLookup{Sire: wantDam}); err != nil || !cmp.Equal(want, l, cmpOpts) {
			t.Errorf("tx.LookUpRegistration(never issued, sire) = %+v, %v; want %+v", l, err, want)
		}
		l, err = tx.LookUpRegistration(c, "UK0100001 09999", store.Parents{GeneticDam: dam.Identifier.String()})
		if want := (store.RegistrationLookup{GeneticDam: wantDam}); err != nil || !cmp.Equal(want, l, cmpOpts) {
			t.Errorf("tx.LookUpRegistration(never issued, genetic dam) = %+v, %v; want %+v", l, err, want)
		}
		l, err = tx.LookUpRegistration(c, "UK0100001 09999", store.Parents{BirthDam: "UK0100001 09998"})
		if err != nil || !cmp.Equal(store.RegistrationLookup{}, l, cmpOpts) {
			t.Errorf("tx.LookUpRegistration(never issued, unknown dam) = %+v, %v; want nothing found", l, err)
		}
		// The transaction's own writes count.
		calf := registered("UK0100001 00007")
		if err := tx.RegisterAnimal(c, calf); err != nil {
			return err
		}
		place := placeOf(storedAnimal(calf))
		l, err = tx.LookUpRegistration(c, calf.Identifier.String(), store.Parents{Sire: calf.Identifier.String()})
		if err != nil || !l.Registered || l.Dam != nil || !cmp.Equal(place, l.Sire, cmpOpts) {
			t.Errorf("tx.LookUpRegistration after RegisterAnimal = %+v, %v; want registered, sire %+v", l, err, place)
		}
		return nil
	})
}

// placeOf is what LookUpRegistration reads of a parent: where it is and
// what it is.
func placeOf(a store.Animal) *store.Animal {
	return &store.Animal{Identifier: a.Identifier, Species: a.Species, Sex: a.Sex,
		BirthDate: a.BirthDate, CPH: a.CPH, OnSince: a.OnSince, State: a.State}
}
