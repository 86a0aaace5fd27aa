package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestBadBytesInUserNames: a NUL or invalid UTF-8 in the user name of the
// token endpoint or the sign-in form is the same 400 on both stores,
// naming the field (PostgreSQL had answered 500, SQLite 400 "wrong
// password").
func TestBadBytesInUserNames(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		for _, name := range []string{"keeper1\x00", "kee\xffper1"} {
			token := url.Values{"grant_type": {"password"}, "username": {name}, "password": {"keeper1"}}
			signIn := url.Values{
				"response_type": {"code"}, "client_id": {"herd-app"}, "redirect_uri": {"http://127.0.0.1:9/callback"},
				"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"},
				"username": {name}, "password": {"keeper1"},
			}
			for path, form := range map[string]url.Values{"/oauth2/token": token, "/oauth2/authorize": signIn} {
				res := b.do(http.MethodPost, path, "", strings.NewReader(form.Encode()), "Content-Type", "application/x-www-form-urlencoded")
				if res.status != http.StatusBadRequest {
					t.Errorf("POST %s username %q: status %d, want 400: %.300s", path, name, res.status, res.body)
					continue
				}
				if e := res.problem().Errors[0]; e.Code != "S008" || e.Source != "form:username" {
					t.Errorf("POST %s username %q: error %s at %s, want S008 at form:username", path, name, e.Code, e.Source)
				}
			}
		}
	})
}
