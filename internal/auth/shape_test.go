package auth

import (
	"context"
	"encoding/base64"
	"net/http/httptest"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// b64 is base64url without padding, as in a JWT.
func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// authFailure is what a test compares of a refused token.
type authFailure struct {
	Kind   livestock.Kind
	Fields []livestock.FieldError
}

func failureOf(err error) authFailure {
	e, ok := err.(*livestock.Error)
	if !ok {
		return authFailure{Kind: -1}
	}
	return authFailure{Kind: e.Kind, Fields: e.Fields}
}

func refused(code livestock.Code, reason string) authFailure {
	return authFailure{Kind: livestock.KindUnauthenticated, Fields: []livestock.FieldError{
		{Code: code, Message: reason, Source: "header:Authorization"},
	}}
}

// TestVerifyRefusesBeforeKeys covers the tokens refused on their shape or
// algorithm alone, before any key or user is consulted.
func TestVerifyRefusesBeforeKeys(t *testing.T) {
	t.Parallel()
	claims := b64(`{"iss":"https://issuer.test","sub":"keeper1","aud":"drover","exp":9999999999}`)
	tests := []struct {
		name, token, want string
	}{
		{"empty", "", reasonMalformed},
		{"garbage", "not a token", reasonMalformed},
		{"two segments", b64(`{"alg":"ES256"}`) + "." + claims, reasonMalformed},
		{"four segments", b64(`{"alg":"ES256"}`) + "." + claims + ".c2ln.c2ln", reasonMalformed},
		{"bad base64", b64(`{"alg":"ES256"}`) + ".%%%." + b64("sig"), reasonMalformed},
		{"header not JSON", b64(`alg=ES256`) + "." + claims + "." + b64("sig"), reasonMalformed},
		{"alg none", b64(`{"alg":"none","typ":"JWT"}`) + "." + claims + ".", reasonAlgNone},
		{"alg None", b64(`{"alg":"None","typ":"JWT"}`) + "." + claims + ".", reasonAlgNone},
		{"alg HS256", b64(`{"alg":"HS256","typ":"JWT"}`) + "." + claims + "." + b64("sig"), reasonAlgorithm},
		{"no alg", b64(`{"typ":"JWT"}`) + "." + claims + "." + b64("sig"), reasonAlgorithm},
	}
	// No keys and no users: none of these may get that far.
	v := NewVerifier("https://issuer.test", "drover", &oidc.StaticKeySet{}, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := v.Verify(context.Background(), tt.token)
			if diff := cmp.Diff(refused(livestock.CodeUnauthenticated, tt.want), failureOf(err)); diff != "" {
				t.Errorf("Verify(%q) mismatch (-want +got):\n%s", tt.token, diff)
			}
		})
	}
}

func TestAuthenticateHeader(t *testing.T) {
	t.Parallel()
	v := NewVerifier("https://issuer.test", "drover", &oidc.StaticKeySet{}, nil)
	tests := []struct {
		name, header, want string
	}{
		{"missing", "", reasonMissing},
		{"basic", "Basic a2VlcGVyMQ==", reasonNotBearer},
		{"scheme only", "Bearer", reasonMalformed},
		{"lower-case scheme reaches the token", "bearer x.y", reasonMalformed},
		{"upper-case scheme reaches the token", "BEARER " + b64(`{"alg":"none"}`) + "." + b64("{}") + ".", reasonAlgNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("GET", "/", nil)
			if tt.header != "" {
				r.Header.Set("Authorization", tt.header)
			}
			_, err := v.Authenticate(r)
			if diff := cmp.Diff(refused(livestock.CodeUnauthenticated, tt.want), failureOf(err)); diff != "" {
				t.Errorf("Authenticate(%q) mismatch (-want +got):\n%s", tt.header, diff)
			}
		})
	}
}

// TestAuthenticateTwoHeaders: the Authorization header given twice is
// refused, whichever of the two holds a token.
func TestAuthenticateTwoHeaders(t *testing.T) {
	t.Parallel()
	v := NewVerifier("https://issuer.test", "drover", &oidc.StaticKeySet{}, nil)
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Add("Authorization", "Bearer x.y.z")
	r.Header.Add("Authorization", "Basic a2VlcGVyMQ==")
	_, err := v.Authenticate(r)
	if diff := cmp.Diff(refused(livestock.CodeUnauthenticated, reasonRepeated), failureOf(err)); diff != "" {
		t.Errorf("two Authorization headers (-want +got):\n%s", diff)
	}
}
