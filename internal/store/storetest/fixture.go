package storetest

import (
	"fmt"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Holdings of the fixture.
var (
	farmA    = livestock.MustCPH("01/100/0001")
	farmB    = livestock.MustCPH("01/100/0002")
	abattoir = livestock.MustCPH("44/200/0003")
	market   = livestock.MustCPH("66/300/0004")
)

// cmpOpts compares the identifier types by value.
var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b livestock.CPH) bool { return a == b }),
	cmp.Comparer(func(a, b livestock.MHS) bool { return a == b }),
}

// mustMHS, tag, rfid and batch parse a fixture's literal, which must be
// valid: one that is not is a broken test.
func mustMHS(s string) livestock.MHS { return must1(livestock.ParseMHS(s)) }

func tag(sp livestock.Species, s string) livestock.Tag { return livestock.MustTag(sp, s) }
func rfid(s string) livestock.RFID                     { return must1(livestock.ParseRFID(s)) }
func batch(s string) livestock.BatchNumber             { return must1(livestock.ParseBatchNumber(s)) }

func must1[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// fixture is a small sandbox: keeper1 keeps three holdings (listed out of
// order), keeper2 one, and the inspector has no password.
func fixture() store.Seed {
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	return store.Seed{
		Holdings: []livestock.Holding{
			{CPH: farmA, Type: livestock.HoldingProducer},
			{CPH: farmB, Type: livestock.HoldingProducer},
			{CPH: abattoir, Type: livestock.HoldingAbattoir, MHS: mustMHS("0036")},
			{CPH: market, Type: livestock.HoldingSaleYard},
		},
		Users: []store.SeedUser{
			{Name: "keeper1", Role: livestock.RoleKeeper, PasswordHash: []byte("$2a$04$hash1"),
				Holdings: []livestock.CPH{abattoir, farmB, farmA}},
			{Name: "keeper2", Role: livestock.RoleKeeper, PasswordHash: []byte("$2a$04$hash2"),
				Holdings: []livestock.CPH{market}},
			{Name: "inspector", Role: livestock.RoleInspector},
		},
		Flocks: []store.Flock{
			{Mark: livestock.MustFlockMark("100001"), Species: livestock.SpeciesSheep, CPH: farmA},
			{Mark: livestock.MustFlockMark("100002"), Species: livestock.SpeciesCattle, CPH: farmB},
		},
		Tags: []store.IssuedTag{
			{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00001"), Mark: livestock.MustFlockMark("100001"), Species: livestock.SpeciesSheep, IssuedOn: day},
			{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00002"), Mark: livestock.MustFlockMark("100001"), Species: livestock.SpeciesSheep, IssuedOn: day},
			{Identifier: tag(livestock.SpeciesCattle, "UK100002400017"), Mark: livestock.MustFlockMark("100002"), Species: livestock.SpeciesCattle, IssuedOn: day},
		},
		Animals: []store.Animal{
			{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00001"), Species: livestock.SpeciesSheep, Sex: livestock.SexFemale, BirthDate: day,
				CPH: farmA, OnSince: day, State: livestock.StateRegistered},
		},
	}
}

// largeSeed is the fixture with n more sheep tags and n/2 more animals.
func largeSeed(n int) store.Seed {
	sd := fixture()
	day := time.Date(2024, 4, 1, 0, 0, 0, 0, time.FixedZone("BST", 3600))
	for i := range n {
		id := fmt.Sprintf("UK0100001 %05d", 100+i)
		sd.Tags = append(sd.Tags, store.IssuedTag{Identifier: tag(livestock.SpeciesSheep, id), Mark: livestock.MustFlockMark("100001"), Species: livestock.SpeciesSheep, IssuedOn: day})
		if i%2 == 0 {
			sd.Animals = append(sd.Animals, store.Animal{Identifier: tag(livestock.SpeciesSheep, id), Species: livestock.SpeciesSheep, Sex: livestock.SexMale,
				BirthDate: day, CPH: farmA, OnSince: day.AddDate(0, 0, 1), State: livestock.StateRegistered})
		}
	}
	return sd
}

// wantCounts is the number of rows Seed(sd) leaves in each table.
func wantCounts(sd store.Seed) map[string]int {
	links := 0
	for _, u := range sd.Users {
		links += len(u.Holdings)
	}
	return map[string]int{"holdings": len(sd.Holdings), "users": len(sd.Users), "user_holdings": links,
		"flocks": len(sd.Flocks), "issued_tags": len(sd.Tags), "animals": len(sd.Animals)}
}
