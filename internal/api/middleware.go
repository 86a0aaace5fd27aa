package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"
)

// The middleware chain, outermost first. routes.go applies it in this
// order; the last step, validation against the OpenAPI document, runs in
// the handler adapter because only there is the route known.
//
//  1. recoverPanics  a panic becomes a generic 500, logged with the correlation id
//  2. correlate      X-Correlation-ID / LI-Correlation-Id, echoed or allocated:
//     early, so that every answer after it carries one (a 400 for a bad
//     path, a 413) as the document requires
//  3. canonicalPath  %27 and other harmless escapes decoded so routes match
//  4. GetHead        (chi's) HEAD is routed as GET, whose body Go's server
//     then leaves out: RFC 9110 §9.1 asks HEAD wherever GET works
//  5. observe        metrics and the access log line
//  6. deadline       the request's context ends after Config.RequestTimeout
//     (read, header and write timeouts are set on the http.Server itself)
//  7. limitBody      bodies over Config.MaxBody are refused with 413 (400
//     on the registration interface, whose errors writeRequestProblem
//     writes in that interface's shape whichever step refuses)
//  8. admit          more than Config.MaxInFlight requests in flight: wait
//     up to Config.MaxWait among at most Config.MaxWaiting, else 503 R003
//     (admission.go). Before authentication, which costs a signature
//     check and a store read, so that refusing stays cheap when most are
//     refused
//  9. authenticate   (only under /v1) the bearer token names a user, else 401
//  10. noStore       (only under /v1) Cache-Control: no-store on every answer
//     from here on, as on every error (headers.go)
//  11. rateLimit     per user (per client address before authentication), 429
//  12. gateQueue     (only on submissions that queue a job) the job queue
//     over Config.MaxQueuedJobs: 503 R003 (queuegate.go)
//  13. validate      in handle(): 400 listing every field that breaks the document
//     (a HEAD has no operation in the document: its GET's handler checks
//     what it reads)
//
// The sandbox issuer's routes take admit then rateLimit, and no token.

// recoverPanics turns a panic into a 500 with the generic body. The
// correlation id is read from the response header that correlate set.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			v := recover()
			if v == nil || v == http.ErrAbortHandler {
				if v != nil {
					panic(v)
				}
				return
			}
			s.log.ErrorContext(r.Context(), "panic",
				slog.String("correlation_id", w.Header().Get(headerCorrelation)),
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
			if !rec.wrote {
				writeProblemFor(rec, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// deadline bounds the time a request may spend inside the service; a
// handler whose store call runs past it answers 504.
func (s *Server) deadline(next http.Handler) http.Handler {
	if s.cfg.RequestTimeout <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// limitBody refuses a declared Content-Length over the limit at once, and
// caps the bytes a handler can read from a body that does not declare one.
func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.cfg.MaxBody {
			writeProblemFor(w, r, tooLarge(s.cfg.MaxBody, nil))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		next.ServeHTTP(w, r)
	})
}

// recorder remembers the status a handler wrote, for metrics and logs.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (rec *recorder) WriteHeader(code int) {
	if !rec.wrote {
		rec.status, rec.wrote = code, true
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *recorder) Write(b []byte) (int, error) {
	if !rec.wrote {
		rec.status, rec.wrote = http.StatusOK, true
	}
	n, err := rec.ResponseWriter.Write(b)
	rec.bytes += int64(n)
	return n, err
}

func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// observe records the request's route, status and duration as metrics and
// one JSON log line.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec, ok := w.(*recorder)
		if !ok {
			rec = &recorder{ResponseWriter: w, status: http.StatusOK}
		}
		info := &requestInfo{}
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		s.metrics.inFlight.Inc()
		defer func() {
			s.metrics.inFlight.Dec()
			route := routePattern(r)
			elapsed := time.Since(start)
			s.metrics.observe(r.Method, route, rec.status, elapsed)
			level := slog.LevelInfo
			// A refusal by the concurrency limit is the limit working, not a
			// fault: thousands of warnings a second would only add load.
			if rec.status >= 500 && !info.shed {
				level = slog.LevelWarn
			}
			s.log.LogAttrs(r.Context(), level, "request",
				slog.String("correlation_id", w.Header().Get(headerCorrelation)),
				slog.String("method", r.Method), slog.String("route", route),
				slog.String("path", r.URL.Path), slog.Int("status", rec.status),
				slog.Int64("bytes", rec.bytes), slog.Duration("duration", elapsed),
				slog.String("user", info.user))
		}()
		next.ServeHTTP(rec, r)
	})
}
