package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestRegistrationProblemEverywhere: every error written for a request to
// the registration interface, whichever step writes it, is in the live
// registration shape with LI-Request-Id, and its status is one the live
// definition declares (a body over the limit 400, a timeout 503); other
// paths keep the general problem.
func TestRegistrationProblemEverywhere(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler)}
	panics := s.recoverPanics(correlate(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	write := func(err error) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeProblemFor(w, r, err) })
	}
	for _, tc := range []struct {
		name, path string
		h          http.Handler
		status     int
		code       livestock.Code
		lis        bool
	}{
		{"a panic", "/v1/animals", panics, 500, livestock.CodeInternal, true},
		{"a panic, on the /v1.0 alias", "/v1.0/requeststatus/x", panics, 500, livestock.CodeInternal, true},
		{"load shed", "/v1/hauliers", write(&livestock.Error{Kind: livestock.KindUnavailable, Detail: "busy",
			Fields: []livestock.FieldError{{Code: livestock.CodeOverloaded, Message: "busy"}}}), 503, livestock.CodeOverloaded, true},
		{"out of time", "/v1/animals/UK442501300001", write(errDeadline), 503, livestock.CodeTimeout, true},
		{"a body over the limit", "/v1/animals", write(&livestock.Error{Kind: livestock.KindTooLarge, Detail: "too big"}), 400, livestock.CodeTooLarge, true},
		{"a panic elsewhere", "/v1/me", panics, 500, livestock.CodeInternal, false},
		{"out of time on the movements", "/v1/TransferRequests", write(errDeadline), 504, livestock.CodeTimeout, false},
		{"not a registration segment", "/v1/animalsx", write(errors.New("x")), 500, livestock.CodeInternal, false},
	} {
		rec := httptest.NewRecorder()
		tc.h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, tc.path, nil))
		var p struct {
			Status int
			Errors []struct {
				Code   livestock.Code
				Detail *string
			}
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &p)
		lis := len(p.Errors) > 0 && p.Errors[0].Detail != nil && rec.Header().Get("LI-Request-Id") != ""
		// The movements interface's body has no status member; the others have.
		if rec.Code != tc.status || (p.Status != tc.status && !strings.HasPrefix(tc.path, "/v1/TransferRequests")) || len(p.Errors) == 0 || p.Errors[0].Code != tc.code || lis != tc.lis {
			t.Errorf("%s: %d %v %s, want %d %s (registration shape: %v)", tc.name, rec.Code, rec.Header(), rec.Body, tc.status, tc.code, tc.lis)
		}
		if retry := rec.Header().Get("Retry-After"); (tc.status == 503) != (retry != "") {
			t.Errorf("%s: Retry-After %q", tc.name, retry)
		}
	}
}
