package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const testIssuer = "https://sandbox.test"

// testClient is the client the tests' authorization requests come from.
var testClient = Client{ID: "herd-app", RedirectURIs: []string{"https://app.test/callback?tenant=7"}}

var keeperCPH = livestock.MustCPH("01/100/0264")

// keeperHash is the bcrypt hash of keeper1's password, "keeper1".
var keeperHash = sync.OnceValue(func() []byte {
	h, err := bcrypt.GenerateFromPassword([]byte("keeper1"), bcrypt.MinCost)
	if err != nil {
		panic(err)
	}
	return h
})

// seedKeeper writes the user keeper1 (password keeper1) and one holding.
func seedKeeper(t *testing.T, s store.Store) livestock.User {
	t.Helper()
	_, err := s.Seed(t.Context(), store.Seed{
		Holdings: []livestock.Holding{{CPH: keeperCPH, Type: livestock.HoldingProducer}},
		Users: []store.SeedUser{{
			Name: "keeper1", Role: livestock.RoleKeeper, PasswordHash: keeperHash(),
			Holdings: []livestock.CPH{keeperCPH},
		}},
	})
	if err != nil {
		t.Fatalf("Seed: %v", err)
	}
	u, err := s.UserByName(t.Context(), "keeper1")
	if err != nil {
		t.Fatalf("UserByName(keeper1): %v", err)
	}
	return u
}

// newSandbox starts a sandbox issuer on s; now nil is the real clock.
func newSandbox(t *testing.T, s store.Store, issuer string, now func() time.Time, opts ...SandboxOption) *Sandbox {
	t.Helper()
	opts = append([]SandboxOption{WithClients(testClient)}, opts...)
	sb, err := NewSandbox(t.Context(), s, issuer, now, opts...)
	if err != nil {
		t.Fatalf("NewSandbox(%s): %v", issuer, err)
	}
	return sb
}

func fixed(t time.Time) func() time.Time { return func() time.Time { return t } }

// post calls a handler with a form body.
func post(h func(http.ResponseWriter, *http.Request) error, path string, form url.Values) (*httptest.ResponseRecorder, error) {
	r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	return w, h(w, r)
}

// tokenOK posts to the token endpoint and decodes a success.
func tokenOK(t *testing.T, sb *Sandbox, form url.Values) tokenResponse {
	t.Helper()
	w, err := post(sb.Token, PathToken, form)
	if err != nil {
		t.Fatalf("Token(%v): %v", form, err)
	}
	if w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("Token: status %d, Cache-Control %q; want 200 no-store", w.Code, w.Header().Get("Cache-Control"))
	}
	var resp tokenResponse
	if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
		t.Fatalf("Token: decoding %s: %v", w.Body, err)
	}
	return resp
}

// passwordToken signs keeper1 in with the password grant.
func passwordToken(t *testing.T, sb *Sandbox) tokenResponse {
	t.Helper()
	return tokenOK(t, sb, url.Values{"grant_type": {"password"}, "username": {"keeper1"}, "password": {"keeper1"}})
}

// segment decodes part i (0 header, 1 claims) of a JWT, unverified.
func segment(t *testing.T, token string, i int) map[string]any {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[i])
	if err != nil {
		t.Fatalf("segment %d of %q: %v", i, token, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("segment %d of %q: %v", i, token, err)
	}
	return m
}

// forge signs claims with a fresh P-256 key under the given kid.
func forge(t *testing.T, kid string, claims jwt.Claims) string {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: priv, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
