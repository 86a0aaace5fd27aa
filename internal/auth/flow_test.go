package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

func TestPasswordGrant(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil)
		resp := passwordToken(t, sb)
		want := tokenResponse{TokenType: "Bearer", ExpiresIn: 3600, Scope: "openid profile"}
		if diff := cmp.Diff(want, resp, cmpIgnoreSecrets); diff != "" || resp.AccessToken == "" || resp.RefreshToken == "" {
			t.Errorf("token response mismatch (-want +got):\n%s", diff)
		}
		if u, err := sb.Verifier(s).Verify(t.Context(), resp.AccessToken); err != nil || u.Name != "keeper1" {
			t.Errorf("Verify(password grant token) = %q, %v; want keeper1", u.Name, err)
		}

		// A wrong password and an unknown user are refused alike.
		refusal := []livestock.FieldError{{Code: livestock.CodeBadGrant, Source: "form:password", Message: msgBadCredentials}}
		for _, creds := range [][2]string{{"keeper1", "wrong"}, {"nobody", "keeper1"}, {"keeper1", ""}} {
			_, err := post(sb.Token, PathToken, url.Values{"grant_type": {"password"}, "username": {creds[0]}, "password": {creds[1]}})
			if creds[1] == "" {
				continue // a missing field, covered by TestEndpointsRefuse
			}
			e, ok := err.(*livestock.Error)
			if !ok || e.Kind != livestock.KindInvalid {
				t.Fatalf("password grant %v: error %v, want KindInvalid", creds, err)
			}
			if diff := cmp.Diff(refusal, e.Fields); diff != "" {
				t.Errorf("password grant %v refusal mismatch (-want +got):\n%s", creds, diff)
			}
		}
	})
}

var cmpIgnoreSecrets = cmp.FilterPath(func(p cmp.Path) bool {
	s := p.String()
	return s == "AccessToken" || s == "RefreshToken"
}, cmp.Ignore())

func TestAuthorizationCodeFlow(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil)
		verifier := rand.Text() + rand.Text()
		sum := sha256.Sum256([]byte(verifier))
		q := goodAuthQuery()
		q.Set("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:]))

		// A wrong password shows the page again, with no redirect.
		bad := cloneWith(q, "username", "keeper1", "password", "wrong")
		w, err := post(sb.Authorize, PathAuthorize, bad)
		if err != nil || w.Code != http.StatusOK || w.Header().Get("Location") != "" ||
			!strings.Contains(w.Body.String(), "The user name or password is wrong.") {
			t.Errorf("Authorize(wrong password) = %d %v, Location %q; want 200 and the page again",
				w.Code, err, w.Header().Get("Location"))
		}

		// Cancel sends the browser back with access_denied and the state.
		w, err = post(sb.Authorize, PathAuthorize, cloneWith(q, "cancel", "1"))
		loc, _ := url.Parse(w.Header().Get("Location"))
		if err != nil || w.Code != http.StatusFound || loc == nil || loc.Query().Get("error") != "access_denied" ||
			loc.Query().Get("state") != q.Get("state") || loc.Query().Get("code") != "" || loc.Query().Get("tenant") != "7" {
			t.Errorf("Authorize(cancel) = %d %v, Location %q; want 302 to the redirect_uri with error=access_denied and the state",
				w.Code, err, w.Header().Get("Location"))
		}

		exchange := func(code string, change ...string) error {
			form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier},
				"redirect_uri": {q.Get("redirect_uri")}, "client_id": {q.Get("client_id")}}
			for i := 0; i < len(change); i += 2 {
				form.Set(change[i], change[i+1])
			}
			w, err := post(sb.Token, PathToken, form)
			if err == nil && w.Code != http.StatusOK {
				t.Errorf("exchange: status %d", w.Code)
			}
			return err
		}
		tests := []struct {
			name   string
			change []string
			want   []livestock.FieldError // Code and Source only
		}{
			{"wrong verifier", []string{"code_verifier", rand.Text() + rand.Text()}, fields(livestock.CodeBadGrant, "form:code_verifier")},
			{"verifier sent as plain challenge", []string{"code_verifier", q.Get("code_challenge")}, fields(livestock.CodeBadGrant, "form:code_verifier")},
			{"other redirect_uri", []string{"redirect_uri", "https://evil.test/cb"}, fields(livestock.CodeBadGrant, "form:redirect_uri")},
			{"other client", []string{"client_id", "other-app"}, fields(livestock.CodeBadGrant, "form:client_id")},
			{"unknown code", []string{"code", "made-up"}, fields(livestock.CodeBadGrant, "form:code")},
		}
		for _, tt := range tests {
			code := authorizeCode(t, sb, q)
			if diff := cmp.Diff(tt.want, codesOf(t, exchange(code, tt.change...), livestock.KindInvalid)); diff != "" {
				t.Errorf("%s: refusal mismatch (-want +got):\n%s", tt.name, diff)
			}
			if tt.name == "unknown code" {
				continue
			}
			// A refused exchange spends the code all the same.
			if diff := cmp.Diff(fields(livestock.CodeBadGrant, "form:code"), codesOf(t, exchange(code), livestock.KindInvalid)); diff != "" {
				t.Errorf("%s: code not spent (-want +got):\n%s", tt.name, diff)
			}
		}

		// A code used twice was intercepted: the second use is refused, and
		// the refresh token the first use gave, rotated or not, is revoked.
		code := authorizeCode(t, sb, q)
		w, err = post(sb.Token, PathToken, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier},
			"redirect_uri": {q.Get("redirect_uri")}, "client_id": {q.Get("client_id")}})
		if err != nil || w.Code != http.StatusOK {
			t.Fatalf("exchange(good code, good verifier): %d %v", w.Code, err)
		}
		refreshOf := func(w *httptest.ResponseRecorder) string {
			t.Helper()
			var tok struct {
				RefreshToken string `json:"refresh_token"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &tok); err != nil || tok.RefreshToken == "" {
				t.Fatalf("no refresh token in %s", w.Body)
			}
			return tok.RefreshToken
		}
		w, err = post(sb.Token, PathToken, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshOf(w)}})
		if err != nil || w.Code != http.StatusOK {
			t.Fatalf("refresh before the code's reuse: %d %v", w.Code, err)
		}
		rotated := refreshOf(w)
		if diff := cmp.Diff(fields(livestock.CodeBadGrant, "form:code"), codesOf(t, exchange(code), livestock.KindInvalid)); diff != "" {
			t.Errorf("second use of a code: refusal mismatch (-want +got):\n%s", diff)
		}
		_, err = post(sb.Token, PathToken, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rotated}})
		if diff := cmp.Diff(fields(livestock.CodeBadGrant, "form:refresh_token"), codesOf(t, err, livestock.KindInvalid)); diff != "" {
			t.Errorf("refresh after the code's reuse: refusal mismatch (-want +got):\n%s", diff)
		}

		// A code lives five minutes.
		late := newSandbox(t, s, testIssuer, fixed(time.Now().Add(6*time.Minute)))
		code = authorizeCode(t, sb, q)
		_, err = post(late.Token, PathToken, url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"code_verifier": {verifier}, "redirect_uri": {q.Get("redirect_uri")}, "client_id": {q.Get("client_id")}})
		if diff := cmp.Diff(fields(livestock.CodeBadGrant, "form:code"), codesOf(t, err, livestock.KindInvalid)); diff != "" {
			t.Errorf("expired code: refusal mismatch (-want +got):\n%s", diff)
		}
	})
}

// authorizeCode signs keeper1 in through the login form and returns the
// code from the redirect, checking the redirect keeps its query and state.
func authorizeCode(t *testing.T, sb *Sandbox, q url.Values) string {
	t.Helper()
	w, err := post(sb.Authorize, PathAuthorize, cloneWith(q, "username", "keeper1", "password", "keeper1"))
	if err != nil || w.Code != http.StatusFound {
		t.Fatalf("Authorize = %d, %v; want 302", w.Code, err)
	}
	loc, err := url.Parse(w.Header().Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	got := loc.Query()
	if !strings.HasPrefix(loc.String(), q.Get("redirect_uri")+"&") || got.Get("state") != q.Get("state") || got.Get("code") == "" {
		t.Fatalf("Authorize redirected to %s; want %s with code and state %q", loc, q.Get("redirect_uri"), q.Get("state"))
	}
	return got.Get("code")
}

func cloneWith(v url.Values, kv ...string) url.Values {
	c := url.Values{}
	for k, vs := range v {
		c[k] = append([]string(nil), vs...)
	}
	for i := 0; i < len(kv); i += 2 {
		c.Set(kv[i], kv[i+1])
	}
	return c
}
