package auth

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// fakeIssuer is an external OpenID provider: discovery and a JWKS of RSA
// keys that the test can rotate.
type fakeIssuer struct {
	*httptest.Server
	mu   sync.Mutex
	keys []jose.JSONWebKey // private; published as public
}

func newFakeIssuer(t *testing.T) *fakeIssuer {
	f := &fakeIssuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": f.URL, "jwks_uri": f.URL + "/keys", "authorization_endpoint": f.URL + "/authorize",
			"token_endpoint": f.URL + "/token", "id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		var set jose.JSONWebKeySet
		for _, k := range f.keys {
			set.Keys = append(set.Keys, k.Public())
		}
		json.NewEncoder(w).Encode(set)
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// rotate replaces the published keys with one new RSA key, returned.
func (f *fakeIssuer) rotate(t *testing.T, kid string) jose.JSONWebKey {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	k := jose.JSONWebKey{Key: priv, KeyID: kid, Algorithm: string(jose.RS256), Use: "sig"}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys = []jose.JSONWebKey{k}
	return k
}

func (f *fakeIssuer) sign(t *testing.T, key jose.JSONWebKey, sub string) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok, err := jwt.Signed(signer).Claims(jwt.Claims{
		Issuer: f.URL, Subject: sub, Audience: jwt.Audience{"drover-api", "other"},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Hour)),
	}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestRemoteIssuer runs production mode against a fake external issuer:
// discovery, RS256 tokens, and a key rotation picked up on the next token.
func TestRemoteIssuer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		f := newFakeIssuer(t)
		k1 := f.rotate(t, "k1")
		keys, err := NewRemoteKeys(t.Context(), f.URL)
		if err != nil {
			t.Fatalf("NewRemoteKeys: %v", err)
		}
		v := NewVerifier(f.URL, "drover-api", keys, s)
		// Without the token cache, which would keep answering for a token
		// verified before its key was withdrawn for up to DefaultCacheTTL
		// (TestVerifierCache bounds that): here the key set is under test.
		v.SetCacheTTL(0)

		check := func(name, tok string, want authFailure) {
			t.Helper()
			u, err := v.Verify(t.Context(), tok)
			if want.Fields == nil {
				if err != nil || u.Name != "keeper1" {
					t.Errorf("%s: Verify = %q, %v; want keeper1", name, u.Name, err)
				}
				return
			}
			if diff := cmp.Diff(want, failureOf(err)); diff != "" {
				t.Errorf("%s: refusal mismatch (-want +got):\n%s", name, diff)
			}
		}
		check("key 1", f.sign(t, k1, "keeper1"), authFailure{})
		check("unknown subject", f.sign(t, k1, "stranger"), refused(livestock.CodeUnknownUser, reasonUnknownUser))

		k2 := f.rotate(t, "k2")
		check("key 2 after rotation", f.sign(t, k2, "keeper1"), authFailure{})
		// go-oidc hands the new key set to the waiting verification before it
		// swaps its cache, so for a moment after a rotation the withdrawn key
		// may still verify; it must stop doing so promptly.
		withdrawn := f.sign(t, k1, "keeper1")
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if _, err := v.Verify(t.Context(), withdrawn); err != nil {
				break
			}
		}
		check("key 1 after it was withdrawn", withdrawn, refused(livestock.CodeUnauthenticated, reasonSignature))
		check("sandbox token", forge(t, "k2", jwt.Claims{Issuer: f.URL, Subject: "keeper1", Audience: jwt.Audience{"drover-api"},
			Expiry: jwt.NewNumericDate(time.Now().Add(time.Hour))}), refused(livestock.CodeUnauthenticated, reasonSignature))
	})

	t.Run("issuer down", func(t *testing.T) {
		t.Parallel()
		f := newFakeIssuer(t)
		f.Close()
		_, err := NewRemoteKeys(t.Context(), f.URL)
		if k := livestock.ErrorKind(err); k != livestock.KindUnavailable {
			t.Errorf("NewRemoteKeys(closed server) kind = %v (%v), want unavailable", k, err)
		}
	})
}
