package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// admit serves a request once admission (admission.go) has a slot for it,
// and answers 503 R003 with Retry-After when it has none: at once when the
// wait is full, after Config.MaxWait when no slot came free. It runs before
// authentication, which costs a signature check and a store read, so that
// a refusal stays cheap when most requests are refused. The slot is given
// back however the request ends, a panic included.
func (s *Server) admit(next http.Handler) http.Handler {
	a := s.admission
	if a == nil {
		return next
	}
	// Written once: a refusal should cost as little as it can.
	fullMessage := fmt.Sprintf("%d requests are being served, the most served at once, and %d are waiting", cap(a.slots), cap(a.queue))
	waitedMessage := fmt.Sprintf("no place among the %d requests served at once came free within %s", cap(a.slots), a.maxWait)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		why := a.acquire(r.Context())
		if why == admitted {
			defer a.release()
			next.ServeHTTP(w, r)
			return
		}
		s.metrics.shed.Inc()
		if info, ok := r.Context().Value(infoKey{}).(*requestInfo); ok {
			info.shed = true
		}
		message := "the request ended while it waited for a place among those served at once"
		switch why {
		case full:
			message = fullMessage
		case waited:
			message = waitedMessage
		}
		retryAfter(w, time.Second)
		writeProblemFor(w, r, &livestock.Error{Kind: livestock.KindUnavailable,
			Detail: "the service is at its concurrency limit: retry after the time in Retry-After",
			Fields: []livestock.FieldError{{Code: livestock.CodeOverloaded, Message: message}}})
	})
}
