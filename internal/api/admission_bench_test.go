package api

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRefusal is the CPU a refusal by the concurrency limit costs in
// the middleware chain, from the router in, with the access log written
// as JSON (to nowhere): what the server spends on each request it turns
// away under an overload, beside Go's HTTP reading and writing.
func BenchmarkRefusal(b *testing.B) {
	s := &Server{cfg: Config{MaxBody: 1 << 20}, log: slog.New(slog.NewJSONHandler(io.Discard, nil)), metrics: newMetrics(nil, nil),
		issuer: issuerStub{}, admission: newAdmission(1, 0, 0)}
	router := s.routes()
	s.admission.acquire(b.Context())
	body := `{"content":{"transferDate":"2026-11-26"}}`
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer x")
		router.ServeHTTP(w, req)
		if w.Code != http.StatusServiceUnavailable {
			b.Fatalf("answered %d", w.Code)
		}
	}
}
