package auth

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestRegisteredClients: the authorization endpoint serves only
// registered clients, at their registered redirect URIs or a loopback
// one; /docs's client is always registered at the issuer's own page.
func TestRegisteredClients(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		sb := newSandbox(t, s, testIssuer, nil)
		tests := []struct {
			client, redirect string
			want             []livestock.FieldError // Code and Source only; nil: the page
		}{
			{"herd-app", "https://app.test/callback?tenant=7", nil},
			{"herd-app", "http://127.0.0.1:53117/cb", nil},
			{"herd-app", "http://[::1]:8000/", nil},
			{"herd-app", "http://localhost:3000/auth", nil},
			{DocsClient, testIssuer + "/docs/oauth2-redirect.html", nil},
			{"herd-app", "https://app.test/callback", fields(livestock.CodeBadFormat, "query:redirect_uri")},
			{"herd-app", "https://evil.test/callback?tenant=7", fields(livestock.CodeBadFormat, "query:redirect_uri")},
			{"herd-app", "https://127.0.0.1/cb", fields(livestock.CodeBadFormat, "query:redirect_uri")},
			{"herd-app", "http://localhost.evil.test/cb", fields(livestock.CodeBadFormat, "query:redirect_uri")},
			{DocsClient, "https://evil.test/docs/oauth2-redirect.html", fields(livestock.CodeBadFormat, "query:redirect_uri")},
			{"any-client", "http://127.0.0.1:9/cb", fields(livestock.CodeBadEnum, "query:client_id")},
		}
		for _, tt := range tests {
			q := goodAuthQuery()
			q.Set("client_id", tt.client)
			q.Set("redirect_uri", tt.redirect)
			w := httptest.NewRecorder()
			err := sb.AuthorizeForm(w, httptest.NewRequest("GET", PathAuthorize+"?"+q.Encode(), nil))
			var got []livestock.FieldError
			if err != nil {
				got = codesOf(t, err, livestock.KindInvalid)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("authorize %s at %s (-want +got):\n%s", tt.client, tt.redirect, diff)
			}
		}
	})
}

func TestParseClients(t *testing.T) {
	t.Parallel()
	got, err := ParseClients(" herd-app=https://app.test/cb, herd-app=http://127.0.0.1:9/cb,,x=https://x.test/ ")
	want := []Client{{"herd-app", []string{"https://app.test/cb"}}, {"herd-app", []string{"http://127.0.0.1:9/cb"}}, {"x", []string{"https://x.test/"}}}
	if err != nil || !cmp.Equal(want, got) {
		t.Errorf("ParseClients = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"herd-app", "=https://a.test/", "a=javascript:alert(1)", "a=https://a.test/#f"} {
		if _, err := ParseClients(bad); err == nil {
			t.Errorf("ParseClients(%q) accepted", bad)
		}
	}
}
