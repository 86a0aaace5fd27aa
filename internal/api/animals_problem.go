package api

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/google/uuid"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
)

// The registration interface's errors are written as the live service
// writes them (lis-definition.json's examples): problem details whose
// errors[] items carry code, detail, source and value. Drover's message
// stays beside detail, for its own clients. Every answer of the interface
// carries LI-Request-Id, which the live definition declares on each: the
// request's id where a registration made one, otherwise one for the HTTP
// request.

// lisProblem is the registration interface's error body.
type lisProblem struct {
	Type   string            `json:"type"`
	Title  string            `json:"title"`
	Status int               `json:"status"`
	Detail string            `json:"detail"`
	Errors []lisProblemError `json:"errors"`
}

type lisProblemError struct {
	Code    livestock.Code `json:"code"`
	Detail  string         `json:"detail"`
	Message string         `json:"message"`
	Source  string         `json:"source,omitempty"`
	Value   string         `json:"value,omitempty"`
}

// lisProblemTypes are the live service's problem types: the section of
// RFC 9110 (RFC 6585 for 429) that defines the status.
var lisProblemTypes = map[int]string{
	400: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.1",
	401: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2",
	403: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.4",
	404: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.5",
	405: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.6",
	409: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.10",
	413: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.14",
	429: "https://datatracker.ietf.org/doc/html/rfc6585#section-4",
	500: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.6.1",
	503: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.6.4",
	504: "https://datatracker.ietf.org/doc/html/rfc9110#section-15.6.5",
}

// handleRegistration is handle for the registration interface's routes:
// the same checks, in the same order, with errors in the live shape.
func (s *Server) handleRegistration(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("LI-Request-Id", uuid.NewString())
		if err := checkQuery(r.URL.RawQuery); err != nil {
			s.failRegistration(w, r, err)
			return
		}
		if fields := s.validate(r); len(fields) > 0 {
			e := livestock.Invalid("the request does not conform to the OpenAPI document", fields...)
			if fields[0].Code == livestock.CodeTooLarge {
				e.Kind, e.Detail = livestock.KindTooLarge, "the request body is over the size limit"
			}
			s.failRegistration(w, r, e)
			return
		}
		if err := h(w, r); err != nil {
			s.failRegistration(w, r, err)
		}
	}
}

// failRegistration is failWith for the registration interface.
func (s *Server) failRegistration(w http.ResponseWriter, r *http.Request, err error) {
	e := withPathSource(asDomainError(err), r)
	switch e.Kind {
	case livestock.KindInternal:
		s.log.ErrorContext(r.Context(), "internal fault", slog.String("correlation_id", correlationID(r.Context())),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("error", err))
	case livestock.KindUnavailable:
		s.log.WarnContext(r.Context(), "unavailable", slog.String("correlation_id", correlationID(r.Context())),
			slog.String("path", r.URL.Path), slog.Any("error", err))
	case livestock.KindUnauthenticated:
		w.Header().Set("WWW-Authenticate", auth.WWWAuthenticate(err))
	}
	status, ok := kindStatus[e.Kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	if len(e.Fields) > 0 && e.Fields[0].Code == livestock.CodeTimeout {
		status = http.StatusGatewayTimeout
	}
	p := lisProblem{Type: lisProblemTypes[status], Title: lisTitle(status, e), Status: status, Detail: e.Detail, Errors: []lisProblemError{}}
	if p.Type == "" {
		p.Type = "urn:drover:problem:" + kindSlug(e.Kind)
	}
	for _, f := range e.Fields {
		p.Errors = append(p.Errors, lisProblemError{Code: f.Code, Detail: f.Message, Message: f.Message, Source: f.Source, Value: truncate(f.Value, 200)})
	}
	if p.Detail == "" {
		p.Detail = http.StatusText(status)
	}
	if len(p.Errors) == 0 {
		p.Errors = append(p.Errors, lisProblemError{Code: kindCode[e.Kind], Detail: p.Detail, Message: p.Detail})
	}
	h := w.Header()
	if (status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests) && h.Get("Retry-After") == "" {
		h.Set("Retry-After", "1")
	}
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	h.Del("Content-Length")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
}

// lisTitle is the live service's title: a 400 is a "Request Schema Error"
// when the request breaks the document (codes S…), a "Validation Error"
// when it breaks a rule; other statuses have their phrase.
func lisTitle(status int, e *livestock.Error) string {
	if status != http.StatusBadRequest {
		return http.StatusText(status)
	}
	for _, f := range e.Fields {
		if len(f.Code) > 0 && f.Code[0] != 'S' {
			return "Validation Error"
		}
	}
	return "Request Schema Error"
}
