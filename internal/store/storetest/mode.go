package storetest

import (
	"sync"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testMode: the first claim fixes a database's mode, a claim of the other
// mode gets the recorded one back, and sandbox data is refused unless the
// mode is sandbox, leaving nothing written.
func testMode(t *testing.T, s store.Store) {
	c := ctx(t)
	sandboxSeed := fixture()
	sandboxSeed.Sandbox = true
	_, err := s.Seed(c, sandboxSeed)
	wantKind(t, "sandbox Seed before any mode", err, livestock.KindConflict)
	if m, err := s.Mode(c); err != nil || m != "" {
		t.Errorf("Mode before any claim = %q, %v; want none", m, err)
	}
	_, err = s.ClaimMode(c, "staging")
	wantKind(t, "ClaimMode(staging)", err, livestock.KindInvalid)
	for _, claim := range []store.Mode{store.ModeProduction, store.ModeSandbox, store.ModeProduction} {
		if m, err := s.ClaimMode(c, claim); err != nil || m != store.ModeProduction {
			t.Errorf("ClaimMode(%s) = %q, %v; want production", claim, m, err)
		}
	}
	if m, err := s.Mode(c); err != nil || m != store.ModeProduction {
		t.Errorf("Mode after the claims = %q, %v; want production", m, err)
	}
	_, err = s.Seed(c, sandboxSeed)
	wantKind(t, "sandbox Seed into production", err, livestock.KindConflict)
	if _, err := s.UserByName(c, sandboxSeed.Users[0].Name); err == nil {
		t.Error("a refused sandbox Seed wrote its users")
	}
	// An import's data goes in whatever the mode.
	if created, err := s.Seed(c, fixture()); err != nil || !created {
		t.Errorf("Seed into production = %v, %v; want true, nil", created, err)
	}
}

// testModeRace: replicas of both modes starting at once on a new
// database all see the one mode the first claim recorded.
func testModeRace(t *testing.T, s store.Store) {
	got := make([]store.Mode, 8)
	var wg sync.WaitGroup
	for i := range got {
		claim := store.ModeSandbox
		if i%2 == 1 {
			claim = store.ModeProduction
		}
		wg.Go(func() {
			m, err := s.ClaimMode(ctx(t), claim)
			if err != nil {
				t.Errorf("ClaimMode: %v", err)
			}
			got[i] = m
		})
	}
	wg.Wait()
	for _, m := range got {
		if m != got[0] || m == "" {
			t.Fatalf("concurrent claims saw %q; want one mode", got)
		}
	}
	sandboxSeed := fixture()
	sandboxSeed.Sandbox = true
	_, err := s.Seed(ctx(t), sandboxSeed)
	if got[0] == store.ModeSandbox && err != nil {
		t.Errorf("sandbox Seed into a sandbox: %v", err)
	}
	if got[0] == store.ModeProduction {
		wantKind(t, "sandbox Seed into production", err, livestock.KindConflict)
	}
}

// ModeMigration checks migration 00014 on s, a new store: a database made
// before it takes no mode when it has no users, sandbox when it holds the
// sandbox's keeper1 and only users with passwords, and production when
// any user has none (drover import's users, who sign in elsewhere), even
// beside the sandbox's users.
func ModeMigration(t *testing.T, s store.Store, b Behind) {
	recorded := func(when, want string) {
		t.Helper()
		b.To(t, 13)
		b.To(t, 14)
		got := b.Text(t, "SELECT coalesce((SELECT value FROM settings WHERE name = $1), '')", "mode")
		if got != want {
			t.Errorf("%s: mode after 00014 = %q, want %q", when, got, want)
		}
	}
	recorded("no users", "")
	withPassword := fixture()
	withPassword.Users = []store.SeedUser{{Name: "keeper1", Role: livestock.RoleKeeper, PasswordHash: []byte("hash")},
		{Name: "bench", Role: livestock.RoleKeeper, PasswordHash: []byte("hash")}}
	_, err := s.Seed(ctx(t), withPassword)
	must(t, "Seed", err)
	recorded("keeper1 and users with passwords", string(store.ModeSandbox))
	_, err = s.Seed(ctx(t), store.Seed{Users: []store.SeedUser{{Name: "jsmith", Subject: "idp|42", Role: livestock.RoleKeeper}}})
	must(t, "Seed", err)
	recorded("keeper1 beside an imported user", string(store.ModeProduction))
}
