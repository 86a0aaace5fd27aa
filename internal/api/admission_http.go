package api

import (
	"fmt"
	"net/http"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// admission holds the adaptive limits of the two route classes. Writes
// and reads cost differently (a POST waits for its group commit, a GET for
// a query), so one latency baseline would fit neither.
type admission struct {
	write, read *adaptiveLimit
}

// The limits' starting points and floors. The floors are 1: under an
// overload the limits fall to them, and every request admitted beyond
// one of each class waited for a CPU or a commit behind the others. With
// floors of 8 writes and 4 reads (so that writes still shared group
// commits) the POSTs admitted during bench/overload waited 400 ms at p99
// inside the server; with floors of 1, 12 ms. The cost is throughput at
// saturation: with one write in flight there is no commit to share, and
// from 64 connections about a quarter fewer requests a second are admitted
// on SQLite, half on PostgreSQL (docs/performance.md, "Performance: overload"). A limit
// that does not bind is never cut (adaptiveLimit), so a light load is not
// refused.
const (
	writeStart, writeFloor = 32, 1
	readStart, readFloor   = 16, 1
	unboundedCeiling       = 4096 // the ceiling when --max-in-flight is 0
)

func newAdmission(ceiling int) *admission {
	if ceiling <= 0 {
		ceiling = unboundedCeiling
	}
	a := &admission{
		write: newAdaptiveLimit(writeStart, writeFloor, ceiling),
		read:  newAdaptiveLimit(readStart, readFloor, ceiling),
	}
	a.write.sched, a.read.sched = newSchedWatch().p99, newSchedWatch().p99
	return a
}

// class names the limit a request counts against.
func (a *admission) class(r *http.Request) (string, *adaptiveLimit) {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return "write", a.write
	}
	return "read", a.read
}

// admit answers 503 at once, with Retry-After, to a request over its
// class's adaptive limit. It runs before authentication so that a refusal
// costs next to nothing: refusing must stay cheap when most requests are
// refused. The latency it measures is from admission to the last byte
// written, authentication included.
func (s *Server) admit(next http.Handler) http.Handler {
	if s.admission == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		class, l := s.admission.class(r)
		if !l.acquire() {
			s.metrics.rejected.WithLabelValues(class).Inc()
			if info, ok := r.Context().Value(infoKey{}).(*requestInfo); ok {
				info.shed = true
			}
			retryAfter(w, time.Second)
			writeProblemFor(w, r, &livestock.Error{Kind: livestock.KindUnavailable,
				Detail: "the service is at its concurrency limit: retry after the time in Retry-After",
				Fields: []livestock.FieldError{{Code: livestock.CodeOverloaded,
					Message: fmt.Sprintf("over the adaptive limit of %s requests in flight", class)}}})
			return
		}
		rec, ok := w.(*recorder)
		if !ok {
			rec = &recorder{ResponseWriter: w, status: http.StatusOK}
		}
		start := time.Now()
		defer func() {
			now := time.Now()
			// A 4xx is refused before any real work: its speed says
			// nothing about the load, and would drag the baseline down.
			l.release(now, now.Sub(start), rec.status < 400 || rec.status >= 500)
		}()
		next.ServeHTTP(rec, r)
	})
}
