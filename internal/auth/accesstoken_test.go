package auth

import (
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// signTyped signs claims with key under the JOSE typ given; "" writes no
// typ header.
func signTyped(t *testing.T, alg jose.SignatureAlgorithm, key jose.JSONWebKey, typ string, claims jwt.Claims) string {
	t.Helper()
	opts := &jose.SignerOptions{}
	if typ != "" {
		opts = opts.WithType(jose.ContentType(typ))
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestVerifyAccessTokenClaims holds both verification paths, the sandbox's
// key set and an external issuer's, to the same access-token rules: a typ
// other than an access token's, an iat in the future beyond the clock
// skew, or a lifetime over the maximum is refused with its reason.
func TestVerifyAccessTokenClaims(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		now := time.Now().Truncate(time.Second)

		sb := newSandbox(t, s, testIssuer, nil)
		_, sandboxKey := sb.ring.current()
		f := newFakeIssuer(t)
		remoteKey := f.rotate(t, "k1")
		keys, err := NewRemoteKeys(t.Context(), f.URL, nil)
		if err != nil {
			t.Fatalf("NewRemoteKeys: %v", err)
		}
		paths := []struct {
			name     string
			verifier *Verifier
			issuer   string
			audience string
			alg      jose.SignatureAlgorithm
			key      jose.JSONWebKey
		}{
			{"sandbox", sb.Verifier(s), testIssuer, DefaultAudience, jose.ES256, sandboxKey},
			{"external", NewVerifier(f.URL, "drover-api", keys, s), f.URL, "drover-api", jose.RS256, remoteKey},
		}

		date := jwt.NewNumericDate
		tests := []struct {
			name     string
			typ      string
			iat, exp time.Time // iat zero: no iat claim
			want     authFailure
		}{
			{"at+jwt", "at+jwt", now, now.Add(time.Hour), authFailure{}},
			{"application/at+jwt", "application/at+jwt", now, now.Add(time.Hour), authFailure{}},
			{"AT+JWT", "AT+JWT", now, now.Add(time.Hour), authFailure{}},
			{"JWT", "JWT", now, now.Add(time.Hour), authFailure{}},
			{"no typ", "", now, now.Add(time.Hour), authFailure{}},
			{"id token typ", "id_token+jwt", now, now.Add(time.Hour), refused(livestock.CodeUnauthenticated, reasonNotAccess)},
			{"logout token", "logout+jwt", now, now.Add(time.Hour), refused(livestock.CodeUnauthenticated, reasonNotAccess)},
			{"dpop proof", "dpop+jwt", now, now.Add(time.Hour), refused(livestock.CodeUnauthenticated, reasonNotAccess)},
			{"iat within skew", "at+jwt", now.Add(4 * time.Minute), now.Add(time.Hour), authFailure{}},
			{"iat in the future", "at+jwt", now.Add(10 * time.Minute), now.Add(time.Hour),
				refused(livestock.CodeUnauthenticated, reasonIssuedInFuture)},
			{"a day", "at+jwt", now.Add(-time.Hour), now.Add(23 * time.Hour), authFailure{}},
			{"ten years", "at+jwt", now, now.AddDate(10, 0, 0), refused(livestock.CodeUnauthenticated, reasonTooLong)},
			{"a day and a second", "at+jwt", now.Add(-time.Hour), now.Add(23*time.Hour + time.Second),
				refused(livestock.CodeUnauthenticated, reasonTooLong)},
			{"no iat, an hour left", "at+jwt", time.Time{}, now.Add(time.Hour), authFailure{}},
			{"no iat, ten years left", "at+jwt", time.Time{}, now.AddDate(10, 0, 0), refused(livestock.CodeUnauthenticated, reasonTooLong)},
		}
		for _, p := range paths {
			p.verifier.SetCacheTTL(0)
			for _, tt := range tests {
				t.Run(p.name+"/"+tt.name, func(t *testing.T) {
					t.Parallel()
					c := jwt.Claims{Issuer: p.issuer, Subject: "keeper1", Audience: jwt.Audience{p.audience}, Expiry: date(tt.exp)}
					if !tt.iat.IsZero() {
						c.IssuedAt = date(tt.iat)
					}
					u, err := p.verifier.Verify(t.Context(), signTyped(t, p.alg, p.key, tt.typ, c))
					if tt.want.Fields == nil {
						if err != nil || u.Name != "keeper1" {
							t.Errorf("Verify = %q, %v; want keeper1", u.Name, err)
						}
						return
					}
					if diff := cmp.Diff(tt.want, failureOf(err)); diff != "" {
						t.Errorf("Verify refusal mismatch (-want +got):\n%s", diff)
					}
				})
			}
		}

		t.Run("sandbox tokens", func(t *testing.T) {
			t.Parallel()
			tok := passwordToken(t, sb).AccessToken
			if typ := segment(t, tok, 0)["typ"]; typ != accessTokenType {
				t.Errorf("sandbox access token typ = %v, want %s", typ, accessTokenType)
			}
			if SandboxTokenLifetime > DefaultMaxTokenLifetime {
				t.Errorf("sandbox tokens last %s, over the default maximum %s", SandboxTokenLifetime, DefaultMaxTokenLifetime)
			}
			v := sb.Verifier(s)
			v.SetMaxLifetime(SandboxTokenLifetime)
			if _, err := v.Verify(t.Context(), tok); err != nil {
				t.Errorf("Verify(sandbox token) with the maximum at its lifetime: %v", err)
			}
			v = sb.Verifier(s)
			v.SetMaxLifetime(SandboxTokenLifetime - time.Second)
			if diff := cmp.Diff(refused(livestock.CodeUnauthenticated, reasonTooLong), failureOf(mustFail(v.Verify(t.Context(), tok)))); diff != "" {
				t.Errorf("Verify(sandbox token) with the maximum under its lifetime (-want +got):\n%s", diff)
			}
		})
	})
}

func mustFail(_ livestock.User, err error) error { return err }
