package auth

import (
	"context"
	"fmt"
	"net/http"

	jose "github.com/go-jose/go-jose/v4"
)

// Paths of the sandbox issuer's endpoints, beneath the issuer URL. The api
// package registers the handlers at these paths.
const (
	PathDiscovery = "/.well-known/openid-configuration"
	PathAuthorize = "/oauth2/authorize"
	PathToken     = "/oauth2/token"
	PathJWKS      = "/oauth2/jwks"
)

// scopesSupported are the scopes the sandbox knows; others are dropped.
var scopesSupported = []string{"openid", "profile", "offline_access"}

// defaultScope is granted when a request names no known scope.
const defaultScope = "openid profile"

// discoveryDoc is the OpenID Provider Metadata the sandbox publishes.
type discoveryDoc struct {
	Issuer                string   `json:"issuer"`
	AuthorizationEndpoint string   `json:"authorization_endpoint"`
	TokenEndpoint         string   `json:"token_endpoint"`
	JWKSURI               string   `json:"jwks_uri"`
	ResponseTypes         []string `json:"response_types_supported"`
	GrantTypes            []string `json:"grant_types_supported"`
	CodeChallengeMethods  []string `json:"code_challenge_methods_supported"`
	SigningAlgs           []string `json:"id_token_signing_alg_values_supported"`
	TokenEndpointAuth     []string `json:"token_endpoint_auth_methods_supported"`
	SubjectTypes          []string `json:"subject_types_supported"`
	Scopes                []string `json:"scopes_supported"`
	ClaimsSupported       []string `json:"claims_supported"`
}

// Discovery serves GET /.well-known/openid-configuration.
func (s *Sandbox) Discovery(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, "public, max-age=300", discoveryDoc{
		Issuer:                s.issuer,
		AuthorizationEndpoint: s.issuer + PathAuthorize,
		TokenEndpoint:         s.issuer + PathToken,
		JWKSURI:               s.issuer + PathJWKS,
		ResponseTypes:         []string{"code"},
		GrantTypes:            []string{grantAuthorizationCode, grantPassword, grantRefreshToken},
		CodeChallengeMethods:  []string{pkceS256},
		SigningAlgs:           []string{string(jose.ES256)},
		TokenEndpointAuth:     []string{"none"},
		SubjectTypes:          []string{"public"},
		Scopes:                scopesSupported,
		ClaimsSupported:       []string{"iss", "sub", "aud", "exp", "iat", "nbf", "jti", "preferred_username"},
	})
}

// JWKS serves GET /oauth2/jwks: the public half of every stored key, read
// afresh so that keys added by other replicas appear.
func (s *Sandbox) JWKS(w http.ResponseWriter, r *http.Request) error {
	keys, err := s.publicKeys(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, "public, max-age=60", jose.JSONWebKeySet{Keys: keys})
}

// publicKeys reloads the ring (rate limited) and returns its public keys.
func (s *Sandbox) publicKeys(ctx context.Context) ([]jose.JSONWebKey, error) {
	if s.ring.mayReload() {
		if err := s.ring.load(ctx); err != nil {
			return nil, fmt.Errorf("auth: JWKS: %w", err)
		}
	}
	public, _ := s.ring.current()
	return public, nil
}
