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

// TestAuthorizeRefusals: the authorization endpoint refuses PKCE plain
// (and a request naming no method, which RFC 7636 reads as plain) with
// OAuth's invalid_request, and a cross-site post of its form with 403;
// both answers conform to the document.
func TestAuthorizeRefusals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		q := url.Values{"response_type": {"code"}, "client_id": {"herd-app"}, "redirect_uri": {"http://127.0.0.1:9/cb"},
			"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "state": {"s1"}}
		for _, method := range []string{"plain", ""} {
			q.Set("code_challenge_method", method)
			if method == "" {
				q.Del("code_challenge_method")
			}
			res := b.do(http.MethodGet, "/oauth2/authorize?"+q.Encode(), "", nil)
			if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), `"error":"invalid_request"`) {
				t.Errorf("GET /oauth2/authorize with method %q = %d %s; want 400 invalid_request", method, res.status, res.body)
			}
		}
		q.Set("code_challenge_method", "S256")
		q.Set("username", "keeper1")
		q.Set("password", "keeper1")
		res := b.do(http.MethodPost, "/oauth2/authorize", "", strings.NewReader(q.Encode()),
			"Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.test")
		if res.status != http.StatusForbidden {
			t.Errorf("cross-site POST /oauth2/authorize = %d %s; want 403", res.status, res.body)
		}
	})
}
