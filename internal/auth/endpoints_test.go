package auth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// These cover what the endpoints refuse or show before touching the store;
// store-backed flows are in flow_test.go.

func TestDiscovery(t *testing.T) {
	t.Parallel()
	sb := &Sandbox{issuer: "https://sandbox.test/auth"}
	w := httptest.NewRecorder()
	if err := sb.Discovery(w, httptest.NewRequest("GET", PathDiscovery, nil)); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"issuer":                                "https://sandbox.test/auth",
		"authorization_endpoint":                "https://sandbox.test/auth/oauth2/authorize",
		"token_endpoint":                        "https://sandbox.test/auth/oauth2/token",
		"jwks_uri":                              "https://sandbox.test/auth/oauth2/jwks",
		"response_types_supported":              []any{"code"},
		"grant_types_supported":                 []any{"authorization_code", "password", "refresh_token"},
		"code_challenge_methods_supported":      []any{"S256"},
		"id_token_signing_alg_values_supported": []any{"ES256"},
		"token_endpoint_auth_methods_supported": []any{"none"},
		"subject_types_supported":               []any{"public"},
		"scopes_supported":                      []any{"openid", "profile", "offline_access"},
		"claims_supported":                      []any{"iss", "sub", "aud", "exp", "iat", "nbf", "jti", "preferred_username"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("discovery document mismatch (-want +got):\n%s", diff)
	}
}

func TestAuthorizeFormPage(t *testing.T) {
	t.Parallel()
	q := goodAuthQuery()
	q.Set("state", `"><script>alert(1)</script>`)
	w := httptest.NewRecorder()
	err := (&Sandbox{clients: map[string][]string{testClient.ID: testClient.RedirectURIs}}).AuthorizeForm(w, httptest.NewRequest("GET", PathAuthorize+"?"+q.Encode(), nil))
	if err != nil {
		t.Fatal(err)
	}
	body := w.Body.String()
	if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Errorf("status %d, Content-Type %q; want 200 text/html", w.Code, w.Header().Get("Content-Type"))
	}
	for _, want := range []string{
		`name="code_challenge" value="E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"`,
		`name="code_challenge_method" value="S256"`,
		`name="redirect_uri" value="https://app.test/callback?tenant=7"`,
		`name="state" value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"`,
		`name="response_type" value="code"`,
		`name="client_id" value="herd-app"`,
		`name="scope" value="openid"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url("} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains %q: it must be self-contained and escaped", bad)
		}
	}
}

func TestEndpointsRefuse(t *testing.T) {
	t.Parallel()
	form := "application/x-www-form-urlencoded"
	tests := []struct {
		name        string
		handler     func(*Sandbox) func(http.ResponseWriter, *http.Request) error
		method, ct  string
		query, body string
		want        []livestock.FieldError // Code and Source only
	}{
		{"authorize without PKCE", authorizeForm, "GET", "", "response_type=code&client_id=a&redirect_uri=https://a.test/",
			"", fields(livestock.CodeMissing, "query:code_challenge")},
		{"authorize implicit flow", authorizeForm, "GET", "", strings.Replace(goodAuthQuery().Encode(), "response_type=code", "response_type=token", 1),
			"", fields(livestock.CodeBadEnum, "query:response_type")},
		{"authorize repeated state", authorizeForm, "GET", "", goodAuthQuery().Encode() + "&state=again",
			"", fields(livestock.CodeBadFormat, "query:state")},
		{"authorize post data: redirect", authorize, "POST", form, "",
			strings.Replace(goodAuthQuery().Encode(), "https%3A%2F%2Fapp.test", "data%3Atext", 1) + "&username=keeper1&password=keeper1",
			fields(livestock.CodeBadFormat, "form:redirect_uri")},
		{"token JSON body", token, "POST", "application/json", "", `{"grant_type":"password"}`,
			fields(livestock.CodeUnsupportedType, "header:Content-Type")},
		{"token no grant_type", token, "POST", form, "", "username=keeper1",
			fields(livestock.CodeMissing, "form:grant_type")},
		{"token client_credentials", token, "POST", form, "", "grant_type=client_credentials",
			fields(livestock.CodeBadEnum, "form:grant_type")},
		{"token implicit grant_type in query is ignored", token, "POST", form, "grant_type=password", "username=keeper1",
			fields(livestock.CodeMissing, "form:grant_type")},
		{"password without password", token, "POST", form, "", "grant_type=password&username=keeper1",
			fields(livestock.CodeMissing, "form:password")},
		{"password without anything", token, "POST", form, "", "grant_type=password",
			append(fields(livestock.CodeMissing, "form:username"), fields(livestock.CodeMissing, "form:password")...)},
		{"code without verifier", token, "POST", form, "", "grant_type=authorization_code&code=c&redirect_uri=https://a.test/&client_id=a",
			fields(livestock.CodeMissing, "form:code_verifier")},
		{"code with short verifier", token, "POST", form, "", "grant_type=authorization_code&code=c&redirect_uri=https://a.test/&client_id=a&code_verifier=short",
			fields(livestock.CodeBadFormat, "form:code_verifier")},
		{"refresh without token", token, "POST", form, "", "grant_type=refresh_token",
			fields(livestock.CodeMissing, "form:refresh_token")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			target := PathToken
			if tt.query != "" {
				target += "?" + tt.query
			}
			r := httptest.NewRequest(tt.method, target, strings.NewReader(tt.body))
			if tt.ct != "" {
				r.Header.Set("Content-Type", tt.ct)
			}
			w := httptest.NewRecorder()
			err := tt.handler(&Sandbox{})(w, r)
			if diff := cmp.Diff(tt.want, codesOf(t, err, livestock.KindInvalid)); diff != "" {
				t.Errorf("fields mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func authorizeForm(s *Sandbox) func(http.ResponseWriter, *http.Request) error { return s.AuthorizeForm }
func authorize(s *Sandbox) func(http.ResponseWriter, *http.Request) error     { return s.Authorize }
func token(s *Sandbox) func(http.ResponseWriter, *http.Request) error         { return s.Token }

func fields(code livestock.Code, source string) []livestock.FieldError {
	return []livestock.FieldError{{Code: code, Source: source}}
}

// codesOf returns the Code and Source of each field of err, which must be
// a *livestock.Error of the given kind.
func codesOf(t *testing.T, err error, kind livestock.Kind) []livestock.FieldError {
	t.Helper()
	e, ok := err.(*livestock.Error)
	if !ok || e.Kind != kind {
		t.Fatalf("error = %v, want a *livestock.Error of kind %v", err, kind)
	}
	var got []livestock.FieldError
	for _, f := range e.Fields {
		if f.Message == "" {
			t.Errorf("field %s has no message", f.Source)
		}
		got = append(got, livestock.FieldError{Code: f.Code, Source: f.Source})
	}
	return got
}
