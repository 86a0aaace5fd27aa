package storetest

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// counts reports the rows in the seeded tables.
func counts(t *testing.T, s store.Store) map[string]int {
	t.Helper()
	n, err := Inspect(s).RowCounts(ctx(t))
	must(t, "RowCounts", err)
	return n
}

func testSeedTwice(t *testing.T, s store.Store) {
	c := ctx(t)
	sd := fixture()
	created, err := s.Seed(c, sd)
	if err != nil || !created {
		t.Fatalf("first Seed = %v, %v; want true, nil", created, err)
	}
	if diff := cmp.Diff(wantCounts(sd), counts(t, s), cmpOpts); diff != "" {
		t.Errorf("rows after the first Seed (-want +got):\n%s", diff)
	}
	// A second Seed leaves every existing row as it is, even where the
	// data differs.
	again := fixture()
	again.Users[1].Role = livestock.RoleInspector
	again.Holdings[3].Type = livestock.HoldingShowground
	created, err = s.Seed(c, again)
	if err != nil || created {
		t.Fatalf("second Seed = %v, %v; want false, nil", created, err)
	}
	if diff := cmp.Diff(wantCounts(sd), counts(t, s), cmpOpts); diff != "" {
		t.Errorf("rows after the second Seed (-want +got):\n%s", diff)
	}
	u, err := s.UserByName(c, "keeper2")
	if err != nil || u.Role != livestock.RoleKeeper {
		t.Errorf("keeper2 after a second Seed = %+v, %v; want still a keeper", u, err)
	}
	h, err := s.Holding(c, market)
	if err != nil || h.Type != livestock.HoldingSaleYard {
		t.Errorf("market after a second Seed = %+v, %v; want still a sale yard", h, err)
	}
}

// testSeedConcurrent seeds from several goroutines at once, as replicas
// starting together do: one creates, none fails, nothing is doubled.
func testSeedConcurrent(t *testing.T, s store.Store) {
	c := ctx(t)
	const n = 4
	var wg sync.WaitGroup
	created := make([]bool, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { created[i], errs[i] = s.Seed(c, largeSeed(300)) })
	}
	wg.Wait()
	winners := 0
	for i := range n {
		if errs[i] != nil {
			t.Errorf("Seed %d: %v", i, errs[i])
		}
		if created[i] {
			winners++
		}
	}
	if winners != 1 {
		t.Errorf("%d of %d concurrent Seeds reported created, want 1", winners, n)
	}
	if diff := cmp.Diff(wantCounts(largeSeed(300)), counts(t, s), cmpOpts); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// testSeedLarge writes thousands of rows, more than one statement binds.
func testSeedLarge(t *testing.T, s store.Store) {
	c := ctx(t)
	sd := largeSeed(6000)
	for i, want := range []bool{true, false} {
		created, err := s.Seed(c, sd)
		if err != nil || created != want {
			t.Fatalf("Seed #%d = %v, %v; want %v, nil", i+1, created, err, want)
		}
	}
	if diff := cmp.Diff(wantCounts(sd), counts(t, s), cmpOpts); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// testSeedUpdate is an operator's import with Update: holdings and users
// that exist take the values given, a user's holdings are exactly those
// listed, a password hash not given is kept, and what the import does not
// name is left alone.
func testSeedUpdate(t *testing.T, s store.Store) {
	c := ctx(t)
	sd := fixture()
	if _, err := s.Seed(c, sd); err != nil {
		t.Fatal(err)
	}
	_, err := s.Seed(c, store.Seed{Update: true,
		Holdings: []livestock.Holding{
			{CPH: market, Type: livestock.HoldingShowground},
			{CPH: abattoir, Type: livestock.HoldingAbattoir, MHS: mustMHS("0037")},
		},
		Users: []store.SeedUser{
			{Name: "keeper1", Subject: "idp|keeper1", Role: livestock.RoleKeeper, Holdings: []livestock.CPH{farmA}},
			{Name: "keeper2", Role: livestock.RoleKeeper}, // every holding withdrawn
			{Name: "auditor", Subject: "idp|auditor", Role: livestock.RoleInspector},
		}})
	must(t, "Seed with Update", err)

	if h, err := s.Holding(c, market); err != nil || h.Type != livestock.HoldingShowground {
		t.Errorf("market = %+v, %v; want a showground", h, err)
	}
	if h, err := s.Holding(c, abattoir); err != nil || h.MHS != mustMHS("0037") {
		t.Errorf("abattoir = %+v, %v; want MHS 0037", h, err)
	}
	if h, err := s.Holding(c, farmB); err != nil || h.Type != livestock.HoldingProducer {
		t.Errorf("farmB, not in the import = %+v, %v; want as it was", h, err)
	}
	k1, err := s.UserBySubject(c, "idp|keeper1")
	if err != nil || k1.Name != "keeper1" || !k1.CanActFor(farmA) || k1.CanActFor(farmB) || k1.CanActFor(abattoir) {
		t.Errorf("keeper1 by its new subject = %+v, %v; want acting for farmA only", k1, err)
	}
	if _, err := s.UserBySubject(c, "keeper1"); !livestock.IsNotFound(err) {
		t.Errorf("keeper1 by its old subject: %v; want not found", err)
	}
	if hash, err := s.PasswordHash(c, "keeper1"); err != nil || string(hash) != "$2a$04$hash1" {
		t.Errorf("keeper1's password hash = %q, %v; want kept", hash, err)
	}
	if k2, err := s.UserByName(c, "keeper2"); err != nil || len(k2.Holdings) != 0 || k2.CanActFor(market) {
		t.Errorf("keeper2 = %+v, %v; want no holdings", k2, err)
	}
	if a, err := s.UserByName(c, "auditor"); err != nil || a.Role != livestock.RoleInspector {
		t.Errorf("auditor = %+v, %v; want a new inspector", a, err)
	}
	if in, err := s.UserByName(c, "inspector"); err != nil || in.Role != livestock.RoleInspector {
		t.Errorf("inspector, not in the import = %+v, %v; want as it was", in, err)
	}
	want := wantCounts(sd)
	want["users"]++
	want["user_holdings"] = 1 // keeper1's farmA
	if diff := cmp.Diff(want, counts(t, s), cmpOpts); diff != "" {
		t.Errorf("rows after the update (-want +got):\n%s", diff)
	}
}
