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

// TestPasswordGrantRefusesCrossSitePosts: the password grant posted by
// another site's page is refused (403) before any password is checked,
// as the sign-in form is; farm software, which sends no browser headers,
// and this site's own pages still get tokens.
func TestPasswordGrantRefusesCrossSitePosts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil)
		form := "grant_type=password&username=keeper1&password=keeper1"
		for _, tt := range []struct {
			name    string
			headers []string
			refused bool
		}{
			{"Sec-Fetch-Site cross-site", []string{"Sec-Fetch-Site", "cross-site"}, true},
			{"Origin of another host", []string{"Origin", "https://evil.test"}, true},
			{"Sec-Fetch-Site same-origin", []string{"Sec-Fetch-Site", "same-origin"}, false},
			{"no browser headers", nil, false},
		} {
			r := httptest.NewRequest("POST", testIssuer+PathToken, strings.NewReader(form))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.RemoteAddr = "192.0.2.7:4000"
			for i := 0; i+1 < len(tt.headers); i += 2 {
				r.Header.Set(tt.headers[i], tt.headers[i+1])
			}
			w := httptest.NewRecorder()
			err := sb.Token(w, r)
			switch {
			case tt.refused && kindOf(err) != livestock.KindForbidden:
				t.Errorf("%s: Token = %d, %v; want KindForbidden", tt.name, w.Code, err)
			case !tt.refused && (err != nil || w.Code != http.StatusOK):
				t.Errorf("%s: Token = %d, %v; want 200", tt.name, w.Code, err)
			}
		}
	})
}
