package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

func testUsers(t *testing.T, s store.Store) {
	c := ctx(t)
	if _, err := s.Seed(c, fixture()); err != nil {
		t.Fatalf("Seed: %v", err)
	}
	want := livestock.User{Name: "keeper1", Subject: "keeper1", Role: livestock.RoleKeeper,
		Holdings: []livestock.Holding{ // ordered by CPH
			{CPH: farmA, Type: livestock.HoldingProducer},
			{CPH: farmB, Type: livestock.HoldingProducer},
			{CPH: abattoir, Type: livestock.HoldingAbattoir, MHS: mustMHS("0036")},
		}}
	byName, err := s.UserByName(c, "keeper1")
	must(t, "UserByName", err)
	if byName.ID == 0 {
		t.Error("UserByName: ID is zero")
	}
	if diff := cmp.Diff(want, byName, cmpOpts, cmpopts.IgnoreFields(livestock.User{}, "ID")); diff != "" {
		t.Errorf("UserByName (-want +got):\n%s", diff)
	}
	bySubject, err := s.UserBySubject(c, "keeper1")
	must(t, "UserBySubject", err)
	if diff := cmp.Diff(byName, bySubject, cmpOpts); diff != "" {
		t.Errorf("UserBySubject differs from UserByName (-name +subject):\n%s", diff)
	}
	insp, err := s.UserByName(c, "inspector")
	must(t, "UserByName(inspector)", err)
	if insp.Role != livestock.RoleInspector || len(insp.Holdings) != 0 || insp.ID == byName.ID {
		t.Errorf("inspector = %+v", insp)
	}

	hash, err := s.PasswordHash(c, "keeper1")
	must(t, "PasswordHash", err)
	if !bytes.Equal(hash, []byte("$2a$04$hash1")) {
		t.Errorf("PasswordHash(keeper1) = %q", hash)
	}
	_, err = s.PasswordHash(c, "inspector")
	wantKind(t, "PasswordHash of a user without one", err, livestock.KindNotFound)

	h, err := s.Holding(c, abattoir)
	must(t, "Holding", err)
	if diff := cmp.Diff(want.Holdings[2], h, cmpOpts); diff != "" {
		t.Errorf("Holding (-want +got):\n%s", diff)
	}
	h, err = s.Holding(c, market)
	must(t, "Holding", err)
	if h.Type != livestock.HoldingSaleYard || !h.MHS.IsZero() {
		t.Errorf("Holding(%s) = %+v", market, h)
	}
}

// testNotFound asks an empty store for one of everything.
func testNotFound(t *testing.T, s store.Store) {
	c := ctx(t)
	nf := livestock.KindNotFound
	u, err := s.UserByName(c, "nobody")
	wantKind(t, "UserByName", err, nf)
	if u.ID != 0 || u.Name != "" {
		t.Errorf("UserByName returned %+v with its error", u)
	}
	_, err = s.UserBySubject(c, "nobody")
	wantKind(t, "UserBySubject", err, nf)
	_, err = s.PasswordHash(c, "nobody")
	wantKind(t, "PasswordHash", err, nf)
	_, err = s.Holding(c, farmA)
	wantKind(t, "Holding", err, nf)
	_, err = Inspect(s).Job(c, 42)
	wantKind(t, "Job", err, nf)
	wantKind(t, "RetryJob", s.RetryJob(c, 42, time.Now(), "x", false), nf)
	_, err = s.TakeAuthCode(c, "nohash", time.Now(), next("nohash-next"))
	wantKind(t, "TakeAuthCode", err, nf)
	_, err = s.TakeRefreshToken(c, "nohash", time.Now(), next("nohash-next"))
	wantKind(t, "TakeRefreshToken", err, nf)
	keys, err := s.SigningKeys(c)
	if err != nil || len(keys) != 0 {
		t.Errorf("SigningKeys = %v, %v; want none, nil", keys, err)
	}
}
