package api_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/drover-registry/drover/internal/auth"
)

// The forged tokens below each break one thing about a real keeper1
// token and keep the rest, so a 401 can only come from that one thing.

var jwtB64 = base64.RawURLEncoding

// expiredToken is a keeper1 token signed with the sandbox's real key by a
// second issuer over the same store whose clock is two hours behind: the
// signature is good, the token expired an hour ago.
func (b *bundle) expiredToken() string {
	b.t.Helper()
	past := func() time.Time { return time.Now().Add(-2 * time.Hour) }
	sb, err := auth.NewSandbox(b.t.Context(), b.store, b.url, past)
	if err != nil {
		b.t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(url.Values{
		"grant_type": {"password"}, "username": {"keeper1"}, "password": {"keeper1"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	if err := sb.Token(w, r); err != nil || w.Code != http.StatusOK {
		b.t.Fatalf("expired token: %v %d %s", err, w.Code, w.Body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &tok); err != nil {
		b.t.Fatal(err)
	}
	return tok.AccessToken
}

// tamperedToken is a valid token whose signature bytes are altered.
func (b *bundle) tamperedToken(valid string) string {
	b.t.Helper()
	parts := strings.Split(valid, ".")
	sig, err := jwtB64.DecodeString(parts[2])
	if err != nil {
		b.t.Fatal(err)
	}
	sig[len(sig)/2] ^= 0x01
	return parts[0] + "." + parts[1] + "." + jwtB64.EncodeToString(sig)
}

// header is the decoded JOSE header of a token.
func (b *bundle) jwtHeader(tok string) map[string]any {
	b.t.Helper()
	raw, err := jwtB64.DecodeString(strings.Split(tok, ".")[0])
	if err != nil {
		b.t.Fatal(err)
	}
	var h map[string]any
	if err := json.Unmarshal(raw, &h); err != nil {
		b.t.Fatal(err)
	}
	return h
}

// reheader encodes h and joins it to the claims of valid, unsigned.
func (b *bundle) reheader(valid string, h map[string]any) string {
	b.t.Helper()
	data, err := json.Marshal(h)
	if err != nil {
		b.t.Fatal(err)
	}
	return jwtB64.EncodeToString(data) + "." + strings.Split(valid, ".")[1]
}

// foreignKeyToken carries valid's claims and kid, signed ES256 by a key
// freshly generated here.
func (b *bundle) foreignKeyToken(valid string) string {
	b.t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		b.t.Fatal(err)
	}
	input := b.reheader(valid, b.jwtHeader(valid))
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, key, sum[:])
	if err != nil {
		b.t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return input + "." + jwtB64.EncodeToString(sig)
}

// algNoneToken carries valid's claims under {"alg":"none"}, unsigned.
func (b *bundle) algNoneToken(valid string) string {
	return b.reheader(valid, map[string]any{"alg": "none", "typ": "JWT"}) + "."
}

// hmacTokens carry valid's claims under HS256, with the sandbox's public
// key (as the JWKS publishes it, as PEM and as DER) for the HMAC secret:
// the classic confusion of a verifier that lets the token pick the
// algorithm.
func (b *bundle) hmacTokens(valid string) []string {
	b.t.Helper()
	res := b.do(http.MethodGet, "/oauth2/jwks", "", nil)
	var set jose.JSONWebKeySet
	res.decode(&set)
	h := b.jwtHeader(valid)
	h["alg"] = "HS256"
	input := b.reheader(valid, h)
	var out []string
	for _, k := range set.Keys {
		if k.KeyID != h["kid"] {
			continue
		}
		der, err := x509.MarshalPKIXPublicKey(k.Key)
		if err != nil {
			b.t.Fatal(err)
		}
		jwk, err := json.Marshal(k)
		if err != nil {
			b.t.Fatal(err)
		}
		pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		for _, secret := range [][]byte{jwk, pemKey, der} {
			mac := hmac.New(sha256.New, secret)
			mac.Write([]byte(input))
			out = append(out, input+"."+jwtB64.EncodeToString(mac.Sum(nil)))
		}
	}
	if len(out) == 0 {
		b.t.Fatalf("no key with kid %v in %s", h["kid"], res.body)
	}
	return out
}
