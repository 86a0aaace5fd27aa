package auth

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// goodAuthQuery is a valid authorization request with PKCE S256.
func goodAuthQuery() url.Values {
	return url.Values{
		"response_type":         {"code"},
		"client_id":             {"herd-app"},
		"redirect_uri":          {"https://app.test/callback?tenant=7"},
		"code_challenge":        {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"},
		"code_challenge_method": {"S256"},
		"state":                 {"xyz"},
		"scope":                 {"openid"},
	}
}

func TestParseAuthRequest(t *testing.T) {
	t.Parallel()
	field := func(code livestock.Code, name string) []livestock.FieldError {
		return []livestock.FieldError{{Code: code, Source: "query:" + name}}
	}
	tests := []struct {
		name   string
		change func(url.Values)
		want   []livestock.FieldError // Code and Source only
	}{
		{"good", func(url.Values) {}, nil},
		{"no method (plain by default) refused", func(v url.Values) { v.Del("code_challenge_method") }, field(livestock.CodeBadEnum, "code_challenge_method")},
		{"plain refused", func(v url.Values) { v.Set("code_challenge_method", "plain") }, field(livestock.CodeBadEnum, "code_challenge_method")},
		{"http localhost", func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1:8080/cb") }, nil},
		{"no PKCE", func(v url.Values) { v.Del("code_challenge") }, field(livestock.CodeMissing, "code_challenge")},
		{"no client", func(v url.Values) { v.Del("client_id") }, field(livestock.CodeMissing, "client_id")},
		{"no redirect", func(v url.Values) { v.Del("redirect_uri") }, field(livestock.CodeMissing, "redirect_uri")},
		{"token response", func(v url.Values) { v.Set("response_type", "token") }, field(livestock.CodeBadEnum, "response_type")},
		{"unknown method", func(v url.Values) { v.Set("code_challenge_method", "S512") }, field(livestock.CodeBadEnum, "code_challenge_method")},
		{"short S256 challenge", func(v url.Values) { v.Set("code_challenge", "abc") }, field(livestock.CodeBadFormat, "code_challenge")},
		{"javascript redirect", func(v url.Values) { v.Set("redirect_uri", "javascript:alert(1)") }, field(livestock.CodeBadFormat, "redirect_uri")},
		{"a redirect carrying a code and a state", func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1:9/cb?code=EVIL&state=EVIL") },
			field(livestock.CodeBadFormat, "redirect_uri")},
		{"JavaScript redirect", func(v url.Values) { v.Set("redirect_uri", "JavaScript://app.test/%0aalert(1)") }, field(livestock.CodeBadFormat, "redirect_uri")},
		{"data redirect", func(v url.Values) { v.Set("redirect_uri", "data:text/html,<script>x</script>") }, field(livestock.CodeBadFormat, "redirect_uri")},
		{"relative redirect", func(v url.Values) { v.Set("redirect_uri", "/callback") }, field(livestock.CodeBadFormat, "redirect_uri")},
		{"fragment redirect", func(v url.Values) { v.Set("redirect_uri", "https://app.test/cb#x") }, field(livestock.CodeBadFormat, "redirect_uri")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := goodAuthQuery()
			tt.change(v)
			_, err := parseAuthRequest(v, "query:")
			var got []livestock.FieldError
			if err != nil {
				for _, f := range err.(*livestock.Error).Fields {
					got = append(got, livestock.FieldError{Code: f.Code, Source: f.Source})
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseAuthRequest() fields mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithParams(t *testing.T) {
	t.Parallel()
	tests := []struct{ uri, state, want string }{
		{"https://app.test/cb", "s1", "https://app.test/cb?code=C&state=s1"},
		{"https://app.test/cb?b=2&a=1", "s 1", "https://app.test/cb?b=2&a=1&code=C&state=s+1"},
		{"http://127.0.0.1:9000/cb", "", "http://127.0.0.1:9000/cb?code=C"},
	}
	for _, tt := range tests {
		if got := withParams(tt.uri, tt.state, "code", "C"); got != tt.want {
			t.Errorf("withParams(%q, %q, code, C) = %q, want %q", tt.uri, tt.state, got, tt.want)
		}
	}
}
