package api

import (
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
)

// limiter holds one token bucket per caller: the user name once the
// request is authenticated, the client address before that (the token
// endpoint, so passwords cannot be guessed at speed).
//
// The buckets live in each replica's memory. With N replicas behind a
// load balancer a user may get up to N times the limit; an operator who
// runs several replicas either divides --rate-limit by N, or routes each
// user to one replica (hash on the Authorization header). The limit guards
// the service from a runaway client; it is not a quota, so it need not be
// exact, and keeping it out of the database keeps it off the hot path.
type limiter struct {
	rps   rate.Limit
	burst int
	mu    sync.Mutex
	users map[string]*bucket
	sweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(rps float64, burst int) *limiter {
	if burst < 1 {
		burst = 1
	}
	return &limiter{rps: rate.Limit(rps), burst: burst, users: map[string]*bucket{}}
}

// allow reports whether key may make a request now, and if not how long
// until it may.
func (l *limiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > time.Minute {
		// Forget idle callers so memory stays bounded: a bucket idle for
		// longer than it takes to refill is full again anyway.
		for k, b := range l.users {
			if now.Sub(b.seen) > time.Minute {
				delete(l.users, k)
			}
		}
		l.sweep = now
	}
	b := l.users[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(l.rps, l.burst)}
		l.users[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, time.Second
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// rateLimit answers 429 with Retry-After to a caller over its rate.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	if s.limits == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := "addr:" + clientAddr(r)
		if u, ok := auth.UserFrom(r.Context()); ok {
			key = "user:" + u.Name
		}
		if ok, wait := s.limits.allow(key, time.Now()); !ok {
			s.metrics.limited.Inc()
			retryAfter(w, wait)
			writeProblemFor(w, r, &livestock.Error{Kind: livestock.KindTooMany, Detail: "too many requests: slow down and retry after the time in Retry-After",
				Fields: []livestock.FieldError{{Code: livestock.CodeRateLimited, Message: "over the limit of requests per second for this user"}}})
			return
		}
		next.ServeHTTP(w, r)
	})
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// authenticate requires a valid bearer token and puts its user in the
// request context.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, err := s.auth.Authenticate(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if info, ok := r.Context().Value(infoKey{}).(*requestInfo); ok {
			info.user = u.Name
		}
		next.ServeHTTP(w, r.WithContext(auth.WithUser(r.Context(), u)))
	})
}

// requestInfo collects what inner steps learn about a request (who made
// it) for the access log written by the outer observe step.
type requestInfo struct {
	user string
	shed bool // refused by the concurrency limit (admit)
}

type infoKey struct{}
