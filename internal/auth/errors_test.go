package auth

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

func TestWWWAuthenticate(t *testing.T) {
	t.Parallel()
	v := NewVerifier("https://issuer.test", "drover", nil, nil)
	authErr := func(header string) error {
		r := httptest.NewRequest("GET", "/v1/Holdings", nil)
		if header != "" {
			r.Header.Set("Authorization", header)
		}
		_, err := v.Authenticate(r)
		return err
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"missing header", authErr(""), `Bearer realm="drover"`},
		{"basic scheme", authErr("Basic a2VlcGVyMTprZWVwZXIx"), `Bearer realm="drover"`},
		{"malformed", authErr("Bearer abc"), `Bearer realm="drover", error="invalid_token", error_description="token malformed"`},
		{"expired", unauthenticated(livestock.CodeUnauthenticated, reasonExpired, nil),
			`Bearer realm="drover", error="invalid_token", error_description="token expired"`},
		{"unknown user", unauthenticated(livestock.CodeUnknownUser, reasonUnknownUser, nil),
			`Bearer realm="drover", error="invalid_token", error_description="token subject is not a registered user"`},
		{"wrapped", fmt.Errorf("api: %w", unauthenticated(livestock.CodeUnauthenticated, `a "quoted" \ reason`, nil)),
			`Bearer realm="drover", error="invalid_token", error_description="a 'quoted' ' reason"`},
		{"not an auth error", livestock.Errorf(livestock.KindInvalid, "bad"), ""},
		{"plain error", errors.New("boom"), ""},
		{"nil", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := WWWAuthenticate(tt.err); got != tt.want {
				t.Errorf("WWWAuthenticate() = %s, want %s", got, tt.want)
			}
		})
	}
}
