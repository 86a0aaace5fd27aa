package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestRegistrationErrorsBeforeTheHandler: the answers given on the
// registration interface's paths before a route's handler runs (a token
// refused, the rate limit, no such route, a query that cannot be read)
// are in that interface's live shape, with
// LI-Request-Id, as the live definition declares every answer (b.do holds
// each to it and to Drover's document).
func TestRegistrationErrorsBeforeTheHandler(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{RateLimit: 1e-6, RateBurst: 2})
	k1 := b.token("keeper1")
	const unknownID = "00000000-0000-4000-8000-000000000000"
	shape := func(name string, res response, status int, code string) {
		t.Helper()
		var p struct {
			Type, Title, Detail string
			Status              int
			Errors              []struct{ Code, Detail, Message string }
		}
		res.decode(&p)
		if res.status != status || p.Status != status || !strings.HasPrefix(p.Type, "https://datatracker.ietf.org/doc/html/rfc") ||
			p.Detail == "" || len(p.Errors) == 0 || p.Errors[0].Code != code || p.Errors[0].Detail == "" {
			t.Errorf("%s: %d %s, want %d in the registration shape with %s", name, res.status, res.body, status, code)
		}
		if !uuidPattern.MatchString(res.header.Get("LI-Request-Id")) || res.header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s: headers %v, want LI-Request-Id and a problem", name, res.header)
		}
	}

	for _, path := range []string{"/v1/animals/UK442501300001", "/v1/requeststatus/" + unknownID, "/v1/breeds?species=cattle"} {
		res := b.do(http.MethodGet, path, "", nil)
		shape("no token on "+path, res, http.StatusUnauthorized, "A001")
		if res.header.Get("WWW-Authenticate") == "" {
			t.Errorf("no token on %s: no WWW-Authenticate", path)
		}
	}
	shape("no such route under /v1/animals", b.do(http.MethodGet, "/v1/animals/UK442501300001/x", k1, nil), http.StatusNotFound, "R007")
	shape("a query that does not decode", b.do(http.MethodGet, "/v1/breeds?species=cattle&x=%zz", k1, nil), http.StatusBadRequest, "S009")

	// A burst of two, some of it spent above: a third call at the latest is
	// over the limit.
	var res response
	for range 3 {
		if res = b.do(http.MethodGet, "/v1/breeds?species=cattle", k1, nil); res.status != http.StatusOK {
			break
		}
	}
	shape("over the rate limit", res, http.StatusTooManyRequests, "R002")
	if res.header.Get("Retry-After") == "" {
		t.Error("over the rate limit: no Retry-After")
	}
}

// TestRegistrationErrorMediaType: a registration error is
// application/problem+json, or application/json, with the same body, for a
// client whose Accept names application/json and not the other (one
// generated from the live definition, which declares its errors so).
func TestRegistrationErrorMediaType(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	for _, tc := range []struct{ accept, want string }{
		{"", "application/problem+json"},
		{"*/*", "application/problem+json"},
		{"application/json", "application/json"},
		{"application/json, application/problem+json", "application/problem+json"},
		{"application/problem+json;q=0, application/json", "application/json"},
	} {
		var headers []string
		if tc.accept != "" {
			headers = []string{"Accept", tc.accept}
		}
		res := b.do(http.MethodGet, "/v1/requeststatus/00000000-0000-4000-8000-000000000000", k1, nil, headers...)
		var p struct {
			Status int
			Errors []struct{ Code string }
		}
		res.decode(&p)
		if res.status != http.StatusNotFound || res.header.Get("Content-Type") != tc.want || p.Status != 404 || len(p.Errors) == 0 {
			t.Errorf("Accept %q: %d %s %s, want 404 as %s", tc.accept, res.status, res.header.Get("Content-Type"), res.body, tc.want)
		}
	}
}
