package api

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/api/openapi"
)

func TestCanonicalEscapedPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"/v1/me", "/v1/me", true},
		{"/v1/X(species=%27Sheep%27,holding=%2701%2f100%2f0264%27)", "/v1/X(species='Sheep',holding='01%2F100%2F0264')", true},
		{"/v1/X(species='Sheep',holding='01%2F100%2F0264')", "/v1/X(species='Sheep',holding='01%2F100%2F0264')", true},
		{"/v1/X%28species=%27Goats%27%29", "/v1/X(species='Goats')", true},
		{"/a%25b", "/a%25b", true},
		{"/a%3fb%23c", "/a%3Fb%23c", true},
		{"/a%00", "", false},
		{"/a%0A", "", false},
		{"/a%ff", "", false},
		{"/a%e2%82%ac", "/a€", true},
		{"/a%", "", false},
		{"/a%2", "", false},
		{"/a%zz", "", false},
	} {
		got, ok := canonicalEscapedPath(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("canonicalEscapedPath(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestODataPathRouting checks that a route written the OData way, with
// quotes and parentheses in one segment, matches however the client
// escapes the quotes and the slashes of a CPH.
func TestODataPathRouting(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler)}
	r := chi.NewRouter()
	r.Use(s.canonicalPath)
	var got []string
	r.Get("/v1/HoldingMovementForReviews(species='{species}',holding='{holding}')", func(w http.ResponseWriter, r *http.Request) {
		h, err := decodeParam(chi.URLParam(r, "holding"))
		if err != nil {
			t.Error(err)
		}
		got = append(got, chi.URLParam(r, "species")+" "+h)
	})
	for _, path := range []string{
		"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')",
		"/v1/HoldingMovementForReviews(species=%27Sheep%27,holding=%2701%2F100%2F0264%27)",
		"/v1/HoldingMovementForReviews%28species=%27Sheep%27,holding=%2701%2f100%2f0264%27%29",
	} {
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d", path, rec.Code)
		}
	}
	want := []string{"Sheep 01/100/0264", "Sheep 01/100/0264", "Sheep 01/100/0264"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
}

func TestRecoverPanics(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	s := &Server{log: slog.New(slog.NewJSONHandler(&logs, nil))}
	h := s.recoverPanics(correlate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic("secret internal detail")
	})))
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("X-Correlation-ID", "corr-42")
	h.ServeHTTP(rec, req)
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret") || !strings.Contains(rec.Body.String(), "R006") {
		t.Errorf("panic answered %d %s; want 500, generic body, R006", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), `"correlation_id":"corr-42"`) || !strings.Contains(logs.String(), "secret internal detail") {
		t.Errorf("panic log lacks correlation id or detail: %s", logs.String())
	}
}

// TestRoutesMatchDocument fails when the router has a route the OpenAPI
// document lacks, or the reverse.
func TestRoutesMatchDocument(t *testing.T) {
	t.Parallel()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{log: slog.New(slog.DiscardHandler), metrics: newMetrics(nil, nil), doc: doc, issuer: stubIssuer{}}
	router := s.routes()
	var routed []string
	err = chi.Walk(router, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routed = append(routed, method+" "+route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, op := range doc.Operations() {
		documented = append(documented, op.Method+" "+op.Path)
	}
	sort.Strings(routed)
	sort.Strings(documented)
	if diff := cmp.Diff(documented, routed); diff != "" {
		t.Errorf("routes (-documented +routed):\n%s", diff)
	}
}

type stubIssuer struct{}

func (stubIssuer) Discovery(http.ResponseWriter, *http.Request) error     { return nil }
func (stubIssuer) JWKS(http.ResponseWriter, *http.Request) error          { return nil }
func (stubIssuer) Token(http.ResponseWriter, *http.Request) error         { return nil }
func (stubIssuer) AuthorizeForm(http.ResponseWriter, *http.Request) error { return nil }
func (stubIssuer) Authorize(http.ResponseWriter, *http.Request) error     { return nil }
