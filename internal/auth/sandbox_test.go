package auth

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

func TestRefreshRotation(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil)
		refresh := func(sb *Sandbox, token string) (tokenResponse, error) {
			w, err := post(sb.Token, PathToken, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {token}})
			var resp tokenResponse
			if err == nil {
				err = json.Unmarshal(w.Body.Bytes(), &resp)
			}
			return resp, err
		}
		spent := fields(livestock.CodeBadGrant, "form:refresh_token")

		first := passwordToken(t, sb)
		second, err := refresh(sb, first.RefreshToken)
		if err != nil {
			t.Fatalf("refresh(first): %v", err)
		}
		if second.RefreshToken == "" || second.RefreshToken == first.RefreshToken || second.Scope != first.Scope {
			t.Errorf("refresh gave refresh token %q scope %q; want a new token, scope %q", second.RefreshToken, second.Scope, first.Scope)
		}
		if u, err := sb.Verifier(s).Verify(t.Context(), second.AccessToken); err != nil || u.Name != "keeper1" {
			t.Errorf("Verify(refreshed access token) = %q, %v", u.Name, err)
		}
		_, err = refresh(sb, first.RefreshToken)
		if diff := cmp.Diff(spent, codesOf(t, err, livestock.KindInvalid)); diff != "" {
			t.Errorf("reusing a rotated refresh token: (-want +got):\n%s", diff)
		}
		// That reuse revoked the chain: the successor too, and whatever
		// was issued from it; another sign-in's chain is untouched.
		_, err = refresh(sb, second.RefreshToken)
		if diff := cmp.Diff(spent, codesOf(t, err, livestock.KindInvalid)); diff != "" {
			t.Errorf("refresh(second) after the first was reused: (-want +got):\n%s", diff)
		}
		a := passwordToken(t, sb)
		other := passwordToken(t, sb)
		b, err := refresh(sb, a.RefreshToken)
		if err != nil {
			t.Fatalf("refresh(a): %v", err)
		}
		c, err := refresh(sb, b.RefreshToken)
		if err != nil {
			t.Fatalf("refresh(b): %v", err)
		}
		if _, err := refresh(sb, b.RefreshToken); err == nil {
			t.Errorf("reusing b was accepted")
		}
		_, err = refresh(sb, c.RefreshToken)
		if diff := cmp.Diff(spent, codesOf(t, err, livestock.KindInvalid)); diff != "" {
			t.Errorf("refresh(c) after b was reused: (-want +got):\n%s", diff)
		}
		if _, err := refresh(sb, other.RefreshToken); err != nil {
			t.Errorf("refresh of another sign-in's token after a reuse: %v", err)
		}

		// A refresh token lives 90 days.
		third := passwordToken(t, sb)
		if _, err := refresh(newSandbox(t, s, testIssuer, fixed(time.Now().Add(89*24*time.Hour))), third.RefreshToken); err != nil {
			t.Errorf("refresh after 89 days: %v", err)
		}
		fourth := passwordToken(t, sb)
		_, err = refresh(newSandbox(t, s, testIssuer, fixed(time.Now().Add(91*24*time.Hour))), fourth.RefreshToken)
		if diff := cmp.Diff(spent, codesOf(t, err, livestock.KindInvalid)); diff != "" {
			t.Errorf("refresh after 91 days: (-want +got):\n%s", diff)
		}

		// A refresh refused for its client or scope leaves the token to
		// its client: it had been spent by whoever sent it.
		fifth := passwordToken(t, sb)
		for field, v := range map[string]string{"client_id": "attacker", "scope": "admin"} {
			_, err := post(sb.Token, PathToken, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {fifth.RefreshToken}, field: {v}})
			if diff := cmp.Diff(fields(livestock.CodeBadGrant, "form:"+field), codesOf(t, err, livestock.KindInvalid)); diff != "" {
				t.Errorf("refresh with %s %s: (-want +got):\n%s", field, v, diff)
			}
		}
		if _, err := refresh(sb, fifth.RefreshToken); err != nil {
			t.Errorf("refresh after two refused: %v", err)
		}
	})
}

// TestConcurrentReuse: a refresh token sent twice at once, as a thief
// racing its client would, leaves neither sender a working token: the one
// refused revokes what the other was given, however close the two came.
func TestConcurrentReuse(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil)
		refresh := func(token string) (string, error) {
			w, err := post(sb.Token, PathToken, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {token}})
			if err != nil {
				return "", err
			}
			var resp tokenResponse
			err = json.Unmarshal(w.Body.Bytes(), &resp)
			return resp.RefreshToken, err
		}
		for round := range 25 {
			first := passwordToken(t, sb)
			var got [2]string
			var errs [2]error
			var wg sync.WaitGroup
			for i := range got {
				wg.Go(func() { got[i], errs[i] = refresh(first.RefreshToken) })
			}
			wg.Wait()
			if (errs[0] == nil) == (errs[1] == nil) {
				t.Fatalf("round %d: two refreshes of one token: %v, %v; want one refused", round, errs[0], errs[1])
			}
			winner := got[0] + got[1]
			if _, err := refresh(winner); err == nil {
				t.Errorf("round %d: the token given to the winner of a concurrent reuse still refreshes", round)
			}
		}
	})
}

// TestReplicas starts two sandboxes on one store at the same moment, as two
// replicas would: each must accept the other's tokens.
func TestReplicas(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		var replicas [2]*Sandbox
		var errs [2]error
		var wg sync.WaitGroup
		for i := range replicas {
			wg.Go(func() { replicas[i], errs[i] = NewSandbox(t.Context(), s, testIssuer, nil) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("replica %d: %v", i, err)
			}
		}
		for i, issuer := range replicas {
			tok := passwordToken(t, issuer).AccessToken
			for j, verifier := range replicas {
				if _, err := verifier.Verifier(s).Verify(t.Context(), tok); err != nil {
					t.Errorf("replica %d refused a token of replica %d: %v", j, i, err)
				}
			}
		}
		// A restart finds the keys and adds none.
		before, err := s.SigningKeys(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		restarted := newSandbox(t, s, testIssuer, nil)
		after, err := s.SigningKeys(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(before) || len(before) == 0 || len(before) > 2 {
			t.Errorf("signing keys: %d before the restart, %d after; want 1 or 2, unchanged", len(before), len(after))
		}
		if _, signing := restarted.ring.current(); signing.KeyID != before[0].ID {
			t.Errorf("restarted replica signs with %q, want the oldest key %q", signing.KeyID, before[0].ID)
		}
	})
}

func TestJWKS(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		sb := newSandbox(t, s, testIssuer, nil)
		w := httptest.NewRecorder()
		if err := sb.JWKS(w, httptest.NewRequest("GET", PathJWKS, nil)); err != nil {
			t.Fatal(err)
		}
		var raw struct{ Keys []map[string]any }
		if err := json.Unmarshal(w.Body.Bytes(), &raw); err != nil {
			t.Fatal(err)
		}
		stored, err := s.SigningKeys(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(raw.Keys) != len(stored) || len(stored) == 0 {
			t.Fatalf("JWKS has %d keys, the store %d", len(raw.Keys), len(stored))
		}
		for i, k := range raw.Keys {
			for _, private := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
				if _, ok := k[private]; ok {
					t.Errorf("JWKS key %d carries private parameter %q", i, private)
				}
			}
			want := map[string]any{"kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": stored[i].ID}
			got := map[string]any{"kty": k["kty"], "crv": k["crv"], "alg": k["alg"], "use": k["use"], "kid": k["kid"]}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("JWKS key %d mismatch (-want +got):\n%s", i, diff)
			}
		}
		var set jose.JSONWebKeySet
		if err := json.Unmarshal(w.Body.Bytes(), &set); err != nil {
			t.Fatal(err)
		}
		for _, k := range set.Keys {
			if !k.IsPublic() || !k.Valid() {
				t.Errorf("JWKS key %s: public %v, valid %v", k.KeyID, k.IsPublic(), k.Valid())
			}
		}
	})
}

// TestAccessTokenClaims checks the shape and the 60-minute life of an
// access token, with the clock fixed. Its typ is at+jwt (RFC 9068), which
// marks it as an access token, never an ID token.
func TestAccessTokenClaims(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		at := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
		for _, aud := range []string{"", "livestock-api"} {
			var opts []SandboxOption
			want := map[string]any{"iss": testIssuer, "sub": "keeper1", "aud": DefaultAudience, "preferred_username": "keeper1",
				"iat": float64(at.Unix()), "nbf": float64(at.Unix()), "exp": float64(at.Unix() + 3600)}
			if aud != "" {
				opts = append(opts, WithAudience(aud))
				want["aud"] = aud
			}
			sb := newSandbox(t, s, testIssuer, fixed(at), opts...)
			tok := passwordToken(t, sb).AccessToken
			claims := segment(t, tok, 1)
			if jti, _ := claims["jti"].(string); len(jti) < 16 {
				t.Errorf("jti = %q, want a random id", jti)
			}
			delete(claims, "jti")
			if diff := cmp.Diff(want, claims); diff != "" {
				t.Errorf("claims mismatch (-want +got):\n%s", diff)
			}
			if life := claims["exp"].(float64) - claims["iat"].(float64); life != 3600 {
				t.Errorf("exp - iat = %v, want 3600", life)
			}
			_, signing := sb.ring.current()
			wantHeader := map[string]any{"alg": "ES256", "kid": signing.KeyID, "typ": "at+jwt"}
			if diff := cmp.Diff(wantHeader, segment(t, tok, 0)); diff != "" {
				t.Errorf("header mismatch (-want +got):\n%s", diff)
			}
		}
	})
}
