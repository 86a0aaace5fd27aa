package storetest

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// counts reports the rows in the seeded tables, failing the test when
// the store cannot count them.
func counts(t *testing.T, s store.Store) map[string]int {
	t.Helper()
	cs, ok := s.(counter)
	if !ok {
		t.Fatalf("%T has no RowCounts method", s)
	}
	n, err := cs.RowCounts(ctx(t))
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
	if diff := cmp.Diff(wantCounts(sd), counts(t, s)); diff != "" {
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
	if diff := cmp.Diff(wantCounts(sd), counts(t, s)); diff != "" {
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
	if diff := cmp.Diff(wantCounts(largeSeed(300)), counts(t, s)); diff != "" {
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
	if diff := cmp.Diff(wantCounts(sd), counts(t, s)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}
