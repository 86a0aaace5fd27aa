package sandbox_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

func TestDataShape(t *testing.T) {
	t.Parallel()
	seed, err := sandbox.Data(bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	holdings := map[string]livestock.Holding{}
	for _, h := range seed.Holdings {
		holdings[h.CPH.String()] = h
	}
	want := []struct {
		cph string
		typ livestock.HoldingType
		mhs string
	}{
		{"01/100/0253", livestock.HoldingAbattoir, "0035"},
		{"01/100/0254", livestock.HoldingAssemblyCentre, ""},
		{"01/100/0255", livestock.HoldingCollectionCentre, ""},
		{"01/100/0256", livestock.HoldingCommonLand, ""},
		{"01/100/0257", livestock.HoldingProducer, ""},
		{"01/100/0258", livestock.HoldingSaleYard, ""},
		{"01/100/0259", livestock.HoldingShowground, ""},
		{"01/100/0260", livestock.HoldingAbattoir, "0036"},
		{"01/100/0264", livestock.HoldingProducer, ""},
		{"01/100/0266", livestock.HoldingShowground, ""},
	}
	for _, w := range want {
		h, ok := holdings[w.cph]
		if !ok || h.Type != w.typ || h.MHS.String() != w.mhs {
			t.Errorf("holding %s = %+v, want type %s mhs %q", w.cph, h, w.typ, w.mhs)
		}
	}
	if len(seed.Holdings) != 14 {
		t.Errorf("%d holdings, want 14", len(seed.Holdings))
	}

	perMark := map[string]int{}
	for _, a := range seed.Animals {
		perMark[store.SpeciesName(a.Species)+" "+a.Identifier.String()[:9]]++
		if a.BirthDate.After(sandbox.Since) || a.OnSince.After(sandbox.Since) {
			t.Errorf("animal %s born %v on since %v, want by %v", a.Identifier, a.BirthDate, a.OnSince, sandbox.Since)
		}
	}
	wantCounts := map[string]int{
		"Sheep UK0130181": 25, "Sheep UK0130182": 25, "Goats UK0130183": 25, "Goats UK0130184": 25,
		"Sheep UK0130186": 25, "Sheep UK0130187": 25, "Goats UK0130188": 25, "Goats UK0130189": 25,
		"Sheep UK0130191": 10, "Sheep UK0130192": 10,
	}
	for _, a := range seed.Animals {
		if yard := a.CPH.String(); (a.Identifier.String()[:9] == "UK0130191" || a.Identifier.String()[:9] == "UK0130192") != (yard == "01/100/0258" || yard == "01/100/0265") {
			t.Errorf("animal %s is on %s: the market lots, and only they, are on the sale yards", a.Identifier, yard)
		}
	}
	for k, n := range wantCounts {
		if perMark[k] != n {
			t.Errorf("%s: %d animals, want %d", k, perMark[k], n)
		}
	}
	cows := 0
	for _, a := range seed.Animals {
		if a.Species == livestock.SpeciesCattle && a.Sex == livestock.SexFemale && a.State == livestock.StateRegistered {
			cows++
		}
	}
	if cows != 10 {
		t.Errorf("%d registered cows, want 10", cows)
	}

	tags := map[string]store.IssuedTag{}
	for _, tag := range seed.Tags {
		tags[tag.Identifier.String()] = tag
	}
	for _, id := range []string{"UK0130181 00001", "UK0130181 00025", "UK0130183 00001", "UK0130189 00025", "UK442501300001"} {
		if _, ok := tags[id]; !ok {
			t.Errorf("tag %s not issued", id)
		}
	}
	if _, ok := tags["UK0130181 00026"]; ok {
		t.Error("flock 130181 has a 26th tag")
	}
	// Cattle: 5 cows and 50 issued numbers per herd, every one with a valid check digit.
	cattle := 0
	for id, tag := range tags {
		if tag.Species != livestock.SpeciesCattle {
			continue
		}
		cattle++
		if _, err := livestock.ParseCattleTag(id); err != nil {
			t.Errorf("cattle tag %s: %v", id, err)
		}
	}
	if cattle != 2*(5+50) {
		t.Errorf("%d cattle tags, want 110", cattle)
	}

	var names []string
	for _, u := range seed.Users {
		names = append(names, u.Name)
		if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(u.Name)) != nil {
			t.Errorf("password of %s is not its name", u.Name)
		}
	}
	if diff := cmp.Diff([]string{"keeper1", "keeper2", "inspector"}, names); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
}

func TestEnsureOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		created, err := sandbox.Ensure(ctx, s, bcrypt.MinCost)
		if err != nil || !created {
			t.Fatalf("first Ensure = %v, %v; want true, nil", created, err)
		}
		created, err = sandbox.Ensure(ctx, s, bcrypt.MinCost)
		if err != nil || created {
			t.Fatalf("second Ensure = %v, %v; want false, nil", created, err)
		}
		u, err := s.UserByName(ctx, "keeper2")
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Holdings) != 7 || u.Holdings[0].CPH.String() != "01/100/0260" || u.Holdings[0].MHS.String() != "0036" {
			t.Errorf("keeper2 holdings = %+v", u.Holdings)
		}
		insp, err := s.UserByName(ctx, sandbox.Inspector)
		if err != nil || insp.Role != livestock.RoleInspector || len(insp.Holdings) != 0 {
			t.Errorf("inspector = %+v, %v", insp, err)
		}
	})
}

// TestEnsureRefusesProduction: the sandbox's test users never go into a
// production database, while a new one becomes a sandbox.
func TestEnsureRefusesProduction(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		if _, err := s.ClaimMode(ctx, store.ModeProduction); err != nil {
			t.Fatal(err)
		}
		created, err := sandbox.Ensure(ctx, s, bcrypt.MinCost)
		if !errors.Is(err, sandbox.ErrProduction) || created {
			t.Fatalf("Ensure on production = %v, %v; want false, ErrProduction", created, err)
		}
		if _, err := s.UserByName(ctx, "keeper1"); err == nil {
			t.Error("Ensure wrote keeper1 into a production database")
		}
	})
}
