package auth

import (
	"net/url"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// authRequest is an authorization request (RFC 6749 §4.1.1 with PKCE),
// carried from the login page to its submission in hidden fields.
type authRequest struct {
	ResponseType        string
	ClientID            string
	RedirectURI         string
	CodeChallenge       string
	CodeChallengeMethod string
	State               string
	Scope               string
}

// parseAuthRequest reads and checks an authorization request from query
// parameters or form fields (prefix "query:" or "form:" for the sources).
// PKCE is required, with S256 only: plain (RFC 7636's default when no
// method is named) hands the verifier to whoever sees the request, so it
// is refused, as OAuth 2.0 Security BCP (RFC 9700 §2.1.1) advises.
func parseAuthRequest(v url.Values, prefix string) (authRequest, error) {
	ar := authRequest{
		ResponseType:        v.Get("response_type"),
		ClientID:            v.Get("client_id"),
		RedirectURI:         v.Get("redirect_uri"),
		CodeChallenge:       v.Get("code_challenge"),
		CodeChallengeMethod: v.Get("code_challenge_method"),
		State:               v.Get("state"),
		Scope:               v.Get("scope"),
	}
	if err := require(v, prefix, "response_type", "client_id", "redirect_uri", "code_challenge"); err != nil {
		return ar, err
	}
	var fields []livestock.FieldError
	bad := func(code livestock.Code, name, msg, value string) {
		fields = append(fields, livestock.FieldError{Code: code, Source: prefix + name, Message: msg, Value: value})
	}
	if ar.ResponseType != "code" {
		bad(livestock.CodeBadEnum, "response_type", "response_type must be code", ar.ResponseType)
	}
	switch ar.CodeChallengeMethod {
	case pkceS256:
		if len(ar.CodeChallenge) != 43 || !pkceValid(ar.CodeChallenge) {
			bad(livestock.CodeBadFormat, "code_challenge", "an S256 code_challenge is 43 base64url characters", "")
		}
	default:
		bad(livestock.CodeBadEnum, "code_challenge_method", "code_challenge_method must be S256 (plain is not accepted)", ar.CodeChallengeMethod)
	}
	if !redirectAllowed(ar.RedirectURI) {
		bad(livestock.CodeBadFormat, "redirect_uri", "redirect_uri must be an absolute http or https URL without a fragment, "+
			"and without code, state or error in its query", ar.RedirectURI)
	}
	if fields != nil {
		return ar, livestock.Invalid("The authorization request is not valid.", fields...)
	}
	return ar, nil
}

// redirectAllowed reports whether uri may receive a code. The sandbox
// allows any host, but only http and https: never javascript:, data: or
// any other scheme a browser would run or render. Nor may its query carry
// code, state or error: the redirect adds its own, and a client reading
// the first of two would take the link's author's.
func redirectAllowed(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	q := u.Query()
	for _, k := range []string{"code", "state", "error", "error_description", "iss"} {
		if q.Has(k) {
			return false
		}
	}
	return !strings.Contains(uri, "#") && u.User == nil
}

// withParams appends the name-value pairs kv and state to the redirect
// URI, keeping its own query as it was.
func withParams(redirectURI, state string, kv ...string) string {
	u, _ := url.Parse(redirectURI) // checked by parseAuthRequest
	add := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		add.Set(kv[i], kv[i+1])
	}
	if state != "" {
		add.Set("state", state)
	}
	if u.RawQuery != "" {
		u.RawQuery += "&"
	}
	u.RawQuery += add.Encode()
	return u.String()
}
