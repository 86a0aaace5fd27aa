package storetest

import (
	"fmt"
	"sync"
	"sync/atomic"
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

// shown is t as the interface shows an instant: UTC, to the whole second.
func shown(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// next is a refresh token a Take grants, with its hash.
func next(hash string) store.RefreshToken {
	return store.RefreshToken{TokenHash: hash, UserName: "keeper1", ClientID: "client", Scope: "openid", ExpiresAt: base.Add(time.Hour)}
}

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

	// At its expiry a code is expired; a microsecond before, it is not. A
	// take that fails stores nothing.
	_, err := s.AuthCode(c, "h1", base)
	wantKind(t, "AuthCode at expiry", err, livestock.KindNotFound)
	_, err = s.TakeAuthCode(c, "h1", base, next("n1"))
	wantKind(t, "TakeAuthCode at expiry", err, livestock.KindNotFound)
	_, err = s.RefreshToken(c, "n1", base)
	wantKind(t, "the token a failed TakeAuthCode would grant", err, livestock.KindNotFound)
	code.ExpiresAt = stored(code.ExpiresAt)
	read, err := s.AuthCode(c, "h1", base.Add(-time.Microsecond))
	must(t, "AuthCode", err)
	got, err := s.TakeAuthCode(c, "h1", base.Add(-time.Microsecond), next("n1"))
	must(t, "TakeAuthCode", err)
	for what, g := range map[string]store.AuthCode{"AuthCode": read, "TakeAuthCode": got} {
		if diff := cmp.Diff(code, g, cmpOpts); diff != "" {
			t.Errorf("%s (-want +got):\n%s", what, diff)
		}
	}
	// The token it granted begins the chain the code names.
	if r, err := s.RefreshToken(c, "n1", base); err != nil || r.Chain != "h1" || r.UserName != "keeper1" {
		t.Errorf("the token TakeAuthCode stored: %+v, %v; want it in chain h1", r, err)
	}
	_, err = s.TakeAuthCode(c, "h1", base.Add(-time.Hour), next("n2"))
	wantKind(t, "TakeAuthCode a second time", err, livestock.KindNotFound)
	_, err = s.AuthCode(c, "h1", base.Add(-time.Hour))
	wantKind(t, "AuthCode once taken", err, livestock.KindNotFound)
}

func testRefreshTokens(t *testing.T, s store.Store) {
	c := ctx(t)
	tok := store.RefreshToken{TokenHash: "r1", UserName: "keeper1", ClientID: "client", Scope: "openid offline",
		ExpiresAt: base}
	must(t, "AddRefreshToken", s.AddRefreshToken(c, tok))
	wantKind(t, "AddRefreshToken of a hash that exists", s.AddRefreshToken(c, tok), livestock.KindConflict)
	_, err := s.TakeRefreshToken(c, "r1", base.Add(time.Second), next("r2"))
	wantKind(t, "TakeRefreshToken after expiry", err, livestock.KindNotFound)
	_, err = s.RefreshToken(c, "r2", base)
	wantKind(t, "the token a failed TakeRefreshToken would grant", err, livestock.KindNotFound)
	got, err := s.TakeRefreshToken(c, "r1", base.Add(-time.Microsecond), next("r2"))
	must(t, "TakeRefreshToken", err)
	if r, err := s.RefreshToken(c, "r2", base); err != nil || r.Chain != "r1" {
		t.Errorf("the successor TakeRefreshToken stored: %+v, %v; want it in chain r1", r, err)
	}
	tok.ExpiresAt = stored(tok.ExpiresAt)
	tok.Chain = "r1" // added without a chain, it starts its own
	if diff := cmp.Diff(tok, got, cmpOpts); diff != "" {
		t.Errorf("TakeRefreshToken (-want +got):\n%s", diff)
	}
	_, err = s.TakeRefreshToken(c, "r1", base.Add(-time.Hour), next("r3"))
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
	_, err = s.TakeRefreshToken(c, "c1", base, next("c1next"))
	must(t, "TakeRefreshToken(c1)", err)
	_, err = s.TakeRefreshToken(c, "c2", base, next("c2next"))
	must(t, "TakeRefreshToken(c2)", err)
	if n, err = s.RevokeRefreshChain(c, "c1", base); err != nil || n != 3 {
		t.Errorf("RevokeRefreshChain(spent c1) = %d, %v; want 3 (c3 and the two successors)", n, err)
	}
	_, err = s.RefreshToken(c, "c2next", base)
	wantKind(t, "RefreshToken of a revoked successor", err, livestock.KindNotFound)
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
	_, err := s.TakeAuthCode(c, "code1", base, next("codenext"))
	must(t, "TakeAuthCode", err)
	_, err = s.TakeRefreshToken(c, "k1", base, next("k1next"))
	must(t, "TakeRefreshToken(k1)", err)
	if n, err := s.RevokeCodeChain(c, "code1", base); err != nil || n != 3 {
		t.Errorf("RevokeCodeChain(taken code1) = %d, %v; want 3 (k2 and the two tokens granted)", n, err)
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

// testAuthCodeRace: of concurrent takes of one code exactly one wins, and
// each loser, revoking the code's chain as a reuse does, leaves no token
// the winner was granted alive: a take returns only once the token it
// granted is stored, and a losing take only after the winner's is.
func testAuthCodeRace(t *testing.T, s store.Store) {
	c := ctx(t)
	must(t, "AddAuthCode", s.AddAuthCode(c, store.AuthCode{CodeHash: "h", UserName: "u", ExpiresAt: base}))
	var seq atomic.Int64
	won := race(t, 8, func() error {
		hash := fmt.Sprintf("granted-%d", seq.Add(1))
		_, err := s.TakeAuthCode(c, "h", base.Add(-time.Minute), next(hash))
		if livestock.IsNotFound(err) {
			if _, rerr := s.RevokeCodeChain(c, "h", base.Add(-time.Minute)); rerr != nil {
				t.Errorf("RevokeCodeChain: %v", rerr)
			}
		}
		return err
	})
	if won != 1 {
		t.Errorf("%d concurrent TakeAuthCode won, want exactly 1", won)
	}
	for i := range seq.Load() {
		if _, err := s.RefreshToken(c, fmt.Sprintf("granted-%d", i+1), base.Add(-time.Minute)); err == nil {
			t.Errorf("granted-%d survived a concurrent reuse of its code", i+1)
		}
	}
}

// testRefreshTokenRace: as testAuthCodeRace, for a refresh token's
// rotation.
func testRefreshTokenRace(t *testing.T, s store.Store) {
	c := ctx(t)
	must(t, "AddRefreshToken", s.AddRefreshToken(c, store.RefreshToken{TokenHash: "r", UserName: "u", ExpiresAt: base}))
	var seq atomic.Int64
	won := race(t, 8, func() error {
		hash := fmt.Sprintf("rotated-%d", seq.Add(1))
		_, err := s.TakeRefreshToken(c, "r", base.Add(-time.Minute), next(hash))
		if livestock.IsNotFound(err) {
			if _, rerr := s.RevokeRefreshChain(c, "r", base.Add(-time.Minute)); rerr != nil {
				t.Errorf("RevokeRefreshChain: %v", rerr)
			}
		}
		return err
	})
	if won != 1 {
		t.Errorf("%d concurrent TakeRefreshToken won, want exactly 1", won)
	}
	for i := range seq.Load() {
		if _, err := s.RefreshToken(c, fmt.Sprintf("rotated-%d", i+1), base.Add(-time.Minute)); err == nil {
			t.Errorf("rotated-%d survived a concurrent reuse of its predecessor", i+1)
		}
	}
}
