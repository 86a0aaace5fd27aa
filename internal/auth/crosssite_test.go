package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestAuthorizeRefusesCrossSitePosts: a sign-in form posted by another
// site's page is refused (403) before any password is checked; the page's
// own post, and a client that is no browser, still sign in.
func TestAuthorizeRefusesCrossSitePosts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil)
		form := cloneWith(goodAuthQuery(), "username", "keeper1", "password", "keeper1")
		tests := []struct {
			name    string
			headers []string
			want    int // 0: refused KindForbidden
		}{
			{"Sec-Fetch-Site cross-site", []string{"Sec-Fetch-Site", "cross-site"}, 0},
			{"Sec-Fetch-Site same-site", []string{"Sec-Fetch-Site", "same-site"}, 0},
			{"Origin of another host", []string{"Origin", "https://evil.test"}, 0},
			{"Sec-Fetch-Site same-origin", []string{"Sec-Fetch-Site", "same-origin"}, http.StatusFound},
			{"Origin of this host", []string{"Origin", "https://sandbox.test"}, http.StatusFound},
			{"no browser headers", nil, http.StatusFound},
		}
		for _, tt := range tests {
			r := httptest.NewRequest("POST", testIssuer+PathAuthorize, strings.NewReader(form.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			for i := 0; i+1 < len(tt.headers); i += 2 {
				r.Header.Set(tt.headers[i], tt.headers[i+1])
			}
			w := httptest.NewRecorder()
			err := sb.Authorize(w, r)
			switch {
			case tt.want == 0 && kindOf(err) != livestock.KindForbidden:
				t.Errorf("%s: Authorize = %d, %v; want KindForbidden", tt.name, w.Code, err)
			case tt.want != 0 && (err != nil || w.Code != tt.want):
				t.Errorf("%s: Authorize = %d, %v; want %d", tt.name, w.Code, err, tt.want)
			}
		}
	})
}
