package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
)

// errDeadline is what a handler returns, wrapped, when the request's own
// deadline passed: the caller gets 504.
var errDeadline = context.DeadlineExceeded

// handlerFunc is the shape of every handler: it writes a success itself and
// returns an error for everything else.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle adapts a handlerFunc. It is the innermost step of the chain: the
// route is known here, so the request's query string is first checked
// for what net/url would silently drop (checkQuery), then the request
// against the OpenAPI operation for it (every failing field listed in one 400), then the
// handler runs, and a returned error becomes the problem body.
func (s *Server) handle(h handlerFunc) http.HandlerFunc { return s.handleWith(h, nil) }

// handleWith is handle for a route whose problem bodies extend adds to
// (the token endpoint's OAuth members: oauthError).
func (s *Server) handleWith(h handlerFunc, extend func(*problem)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := checkQuery(r.URL.RawQuery); err != nil {
			s.failWith(w, r, extend, err)
			return
		}
		if fields := s.validate(r); len(fields) > 0 {
			e := livestock.Invalid("the request does not conform to the OpenAPI document", fields...)
			if fields[0].Code == livestock.CodeTooLarge {
				e.Kind, e.Detail = livestock.KindTooLarge, "the request body is over the size limit"
			}
			s.failWith(w, r, extend, e)
			return
		}
		if err := h(w, r); err != nil {
			s.failWith(w, r, extend, err)
		}
	}
}

// validate checks r against the document's operation for its route.
func (s *Server) validate(r *http.Request) []livestock.FieldError {
	rc := chi.RouteContext(r.Context())
	if rc == nil || s.doc == nil {
		return nil
	}
	params := make(map[string]string, len(rc.URLParams.Keys))
	for i, k := range rc.URLParams.Keys {
		v, err := decodeParam(rc.URLParams.Values[i])
		if err != nil {
			return []livestock.FieldError{{Code: livestock.CodeBadPath, Message: "cannot be percent-decoded", Source: "path:" + k, Value: rc.URLParams.Values[i]}}
		}
		params[k] = v
	}
	return s.doc.ValidateRequest(r, rc.RoutePattern(), params)
}

// fail writes err as a problem body. Internal faults are logged with the
// correlation id; the caller sees only a generic message.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) { s.failWith(w, r, nil, err) }

// failWith is fail, with extend adding to the body (nil adds nothing).
func (s *Server) failWith(w http.ResponseWriter, r *http.Request, extend func(*problem), err error) {
	e := withPathSource(asDomainError(err), r)
	switch e.Kind {
	case livestock.KindInternal:
		s.log.ErrorContext(r.Context(), "internal fault", slog.String("correlation_id", correlationID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("error", err))
	case livestock.KindUnavailable:
		msg := "unavailable"
		if errors.Is(r.Context().Err(), context.DeadlineExceeded) {
			// Its own deadline, not the database: a slow upload, say.
			msg = "the request's deadline (--request-timeout) passed"
		}
		s.log.WarnContext(r.Context(), msg, slog.String("correlation_id", correlationID(r.Context())),
			slog.String("path", r.URL.Path), slog.Any("error", err))
	case livestock.KindUnauthenticated:
		w.Header().Set("WWW-Authenticate", auth.WWWAuthenticate(err))
	}
	writeRequestProblem(w, r, e, extend)
}

// withPathSource names the path parameter a 404 is about, when the route
// has one and the error names no field: "no request 999" is then at
// path:requestId, as the document's NotFound example shows. e is not
// changed; a copy is returned.
func withPathSource(e *livestock.Error, r *http.Request) *livestock.Error {
	rc := chi.RouteContext(r.Context())
	if e.Kind != livestock.KindNotFound || len(e.Fields) > 0 || rc == nil || len(rc.URLParams.Keys) != 1 {
		return e
	}
	value := rc.URLParams.Values[0]
	if v, err := url.PathUnescape(value); err == nil {
		value = v
	}
	c := *e
	c.Fields = []livestock.FieldError{{Code: livestock.CodeNotFound, Source: "path:" + rc.URLParams.Keys[0], Value: value, Message: e.Detail}}
	return &c
}
