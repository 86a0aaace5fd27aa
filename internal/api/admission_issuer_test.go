package api

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// issuerStub answers every issuer endpoint 200: what matters here is
// whether a request reaches it.
type issuerStub struct{}

func (issuerStub) ok(w http.ResponseWriter, _ *http.Request) error {
	w.WriteHeader(http.StatusOK)
	return nil
}
func (i issuerStub) Discovery(w http.ResponseWriter, r *http.Request) error     { return i.ok(w, r) }
func (i issuerStub) JWKS(w http.ResponseWriter, r *http.Request) error          { return i.ok(w, r) }
func (i issuerStub) Token(w http.ResponseWriter, r *http.Request) error         { return i.ok(w, r) }
func (i issuerStub) AuthorizeForm(w http.ResponseWriter, r *http.Request) error { return i.ok(w, r) }
func (i issuerStub) Authorize(w http.ResponseWriter, r *http.Request) error     { return i.ok(w, r) }

// TestIssuerUnderAdmission: the issuer's routes count against the same
// concurrency limit as /v1, so sign-ins cannot crowd out the registry:
// with every place taken, a token request and the keys are refused 503,
// with Retry-After, at once.
func TestIssuerUnderAdmission(t *testing.T) {
	t.Parallel()
	s := &Server{cfg: Config{MaxBody: 1 << 20}, log: slog.New(slog.DiscardHandler), metrics: newMetrics(nil, nil), issuer: issuerStub{},
		admission: newAdmission(1, 0, 0)}
	router := s.routes()
	if s.admission.acquire(t.Context()) != admitted {
		t.Fatal("acquire: the place is already taken")
	}
	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader("grant_type=password"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	router.ServeHTTP(w, req)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("POST /oauth2/token over the limit = %d %v; want 503 with Retry-After", w.Code, w.Header())
	}
	w = httptest.NewRecorder()
	router.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/oauth2/jwks", nil))
	if w.Code != http.StatusServiceUnavailable {
		t.Errorf("GET /oauth2/jwks over the limit = %d; want 503", w.Code)
	}
	s.admission.release()
	w = httptest.NewRecorder()
	router.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/oauth2/jwks", nil))
	if w.Code != http.StatusOK {
		t.Errorf("GET /oauth2/jwks with the place free = %d; want 200", w.Code)
	}
}
