package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// base is an instant with nanoseconds, in a zone that is not UTC: what a
// store returns must be UTC, truncated to the microsecond.
var base = time.Date(2025, 6, 30, 23, 59, 59, 999_999_999, time.FixedZone("X", -5*3600))

// stored is t as a store returns it.
func stored(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func testSigningKeys(t *testing.T, s store.Store) {
	c := ctx(t)
	k1 := store.SigningKey{ID: "k1", Algorithm: "ES256", PrivateJWK: []byte(`{"kty":"EC","d":"1"}`), CreatedAt: base}
	k0 := store.SigningKey{ID: "k0", Algorithm: "ES256", PrivateJWK: []byte(`{"kty":"EC","d":"0"}`), CreatedAt: base}
	k2 := store.SigningKey{ID: "a2", Algorithm: "ES384", PrivateJWK: []byte(`{"kty":"EC","d":"2"}`),
		CreatedAt: base.Add(time.Microsecond)}
	for _, k := range []store.SigningKey{k2, k1, k0} {
		must(t, "AddSigningKey", s.AddSigningKey(c, k))
	}
	// A second key with an ID that exists changes nothing.
	must(t, "AddSigningKey again", s.AddSigningKey(c, store.SigningKey{ID: "k1", Algorithm: "RS256",
		PrivateJWK: []byte(`{}`), CreatedAt: base.Add(-time.Hour)}))
	got, err := s.SigningKeys(c)
	must(t, "SigningKeys", err)
	for _, k := range []*store.SigningKey{&k0, &k1, &k2} {
		k.CreatedAt = stored(k.CreatedAt)
	}
	if diff := cmp.Diff([]store.SigningKey{k0, k1, k2}, got, cmpOpts); diff != "" {
		t.Errorf("SigningKeys, by created_at then id (-want +got):\n%s", diff)
	}
}

func testAuthCodes(t *testing.T, s store.Store) {
	c := ctx(t)
	code := store.AuthCode{CodeHash: "h1", UserName: "keeper1", ClientID: "client", RedirectURI: "http://localhost/cb",
		Challenge: "abc", ChallengeType: "S256", Scope: "openid", ExpiresAt: base}
	must(t, "AddAuthCode", s.AddAuthCode(c, code))
	wantKind(t, "AddAuthCode of a hash that exists", s.AddAuthCode(c, code), livestock.KindConflict)

	// At its expiry a code is expired; a microsecond before, it is not.
	_, err := s.TakeAuthCode(c, "h1", base)
	wantKind(t, "TakeAuthCode at expiry", err, livestock.KindNotFound)
	got, err := s.TakeAuthCode(c, "h1", base.Add(-time.Microsecond))
	must(t, "TakeAuthCode", err)
	code.ExpiresAt = stored(code.ExpiresAt)
	if diff := cmp.Diff(code, got, cmpOpts); diff != "" {
		t.Errorf("TakeAuthCode (-want +got):\n%s", diff)
	}
	_, err = s.TakeAuthCode(c, "h1", base.Add(-time.Hour))
	wantKind(t, "TakeAuthCode a second time", err, livestock.KindNotFound)
}

func testRefreshTokens(t *testing.T, s store.Store) {
	c := ctx(t)
	tok := store.RefreshToken{TokenHash: "r1", UserName: "keeper1", ClientID: "client", Scope: "openid offline",
		ExpiresAt: base}
	must(t, "AddRefreshToken", s.AddRefreshToken(c, tok))
	wantKind(t, "AddRefreshToken of a hash that exists", s.AddRefreshToken(c, tok), livestock.KindConflict)
	_, err := s.TakeRefreshToken(c, "r1", base.Add(time.Second))
	wantKind(t, "TakeRefreshToken after expiry", err, livestock.KindNotFound)
	got, err := s.TakeRefreshToken(c, "r1", base.Add(-time.Microsecond))
	must(t, "TakeRefreshToken", err)
	tok.ExpiresAt = stored(tok.ExpiresAt)
	tok.Chain = "r1" // added without a chain, it starts its own
	if diff := cmp.Diff(tok, got, cmpOpts); diff != "" {
		t.Errorf("TakeRefreshToken (-want +got):\n%s", diff)
	}
	_, err = s.TakeRefreshToken(c, "r1", base.Add(-time.Hour))
	wantKind(t, "TakeRefreshToken a second time", err, livestock.KindNotFound)
}

// testRefreshChain: reuse of a spent token revokes its chain (every
// token rotated from it), and nothing else.
func testRefreshChain(t *testing.T, s store.Store) {
	c := ctx(t)
	later := base.Add(time.Hour)
	for _, r := range []store.RefreshToken{
		{TokenHash: "c1", UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: later},
		{TokenHash: "c2", UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: later, Chain: "c1"},
		{TokenHash: "c3", UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: later, Chain: "c1"},
		{TokenHash: "other", UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: later},
	} {
		must(t, "AddRefreshToken", s.AddRefreshToken(c, r))
	}
	n, err := s.RevokeRefreshChain(c, "c1", base)
	must(t, "RevokeRefreshChain of an unspent token", err)
	if n != 0 {
		t.Errorf("RevokeRefreshChain of an unspent token revoked %d; want 0", n)
	}
	_, err = s.TakeRefreshToken(c, "c1", base)
	must(t, "TakeRefreshToken(c1)", err)
	_, err = s.TakeRefreshToken(c, "c2", base)
	must(t, "TakeRefreshToken(c2)", err)
	if n, err = s.RevokeRefreshChain(c, "c1", base); err != nil || n != 1 {
		t.Errorf("RevokeRefreshChain(spent c1) = %d, %v; want 1 (c3)", n, err)
	}
	_, err = s.RefreshToken(c, "c3", base)
	wantKind(t, "RefreshToken of a revoked successor", err, livestock.KindNotFound)
	if _, err := s.RefreshToken(c, "other", base); err != nil {
		t.Errorf("RefreshToken of another chain: %v", err)
	}
	if n, err = s.RevokeRefreshChain(c, "nohash", base); err != nil || n != 0 {
		t.Errorf("RevokeRefreshChain(unknown) = %d, %v; want 0", n, err)
	}
}

// testCodeChain: a second use of a taken authorization code revokes the
// refresh tokens of the chain its first use started, and nothing else; a
// code not yet taken revokes nothing.
func testCodeChain(t *testing.T, s store.Store) {
	c := ctx(t)
	later := base.Add(time.Hour)
	must(t, "AddAuthCode", s.AddAuthCode(c, store.AuthCode{CodeHash: "code1", UserName: "keeper1", ClientID: "client",
		RedirectURI: "http://localhost/cb", Challenge: "abc", ChallengeType: "S256", Scope: "openid", ExpiresAt: later}))
	for _, r := range []store.RefreshToken{
		{TokenHash: "k1", UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: later, Chain: "code1"},
		{TokenHash: "k2", UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: later, Chain: "code1"},
		{TokenHash: "k3", UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: later},
	} {
		must(t, "AddRefreshToken", s.AddRefreshToken(c, r))
	}
	if n, err := s.RevokeCodeChain(c, "code1", base); err != nil || n != 0 {
		t.Errorf("RevokeCodeChain of a code not taken = %d, %v; want 0", n, err)
	}
	_, err := s.TakeAuthCode(c, "code1", base)
	must(t, "TakeAuthCode", err)
	_, err = s.TakeRefreshToken(c, "k1", base)
	must(t, "TakeRefreshToken(k1)", err)
	if n, err := s.RevokeCodeChain(c, "code1", base); err != nil || n != 1 {
		t.Errorf("RevokeCodeChain(taken code1) = %d, %v; want 1 (k2)", n, err)
	}
	_, err = s.RefreshToken(c, "k2", base)
	wantKind(t, "RefreshToken of the code's revoked chain", err, livestock.KindNotFound)
	if _, err := s.RefreshToken(c, "k3", base); err != nil {
		t.Errorf("RefreshToken of another chain: %v", err)
	}
	if n, err := s.RevokeCodeChain(c, "nocode", base); err != nil || n != 0 {
		t.Errorf("RevokeCodeChain(unknown) = %d, %v; want 0", n, err)
	}
}

// race runs take from n goroutines at once and reports how many won; every
// loser must see KindNotFound.
func race(t *testing.T, n int, take func() error) int {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = take()
		})
	}
	close(start)
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else {
			wantKind(t, "losing take", err, livestock.KindNotFound)
		}
	}
	return won
}

func testAuthCodeRace(t *testing.T, s store.Store) {
	c := ctx(t)
	must(t, "AddAuthCode", s.AddAuthCode(c, store.AuthCode{CodeHash: "h", UserName: "u", ExpiresAt: base}))
	won := race(t, 8, func() error {
		_, err := s.TakeAuthCode(c, "h", base.Add(-time.Minute))
		return err
	})
	if won != 1 {
		t.Errorf("%d concurrent TakeAuthCode won, want exactly 1", won)
	}
}

func testRefreshTokenRace(t *testing.T, s store.Store) {
	c := ctx(t)
	must(t, "AddRefreshToken", s.AddRefreshToken(c, store.RefreshToken{TokenHash: "r", UserName: "u", ExpiresAt: base}))
	won := race(t, 8, func() error {
		_, err := s.TakeRefreshToken(c, "r", base.Add(-time.Minute))
		return err
	})
	if won != 1 {
		t.Errorf("%d concurrent TakeRefreshToken won, want exactly 1", won)
	}
}
