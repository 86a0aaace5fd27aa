package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/drover-registry/drover/internal/livestock"
)

// The registration interface's errors are written as the live service
// writes them (lis-definition.json's examples): problem details whose
// errors[] items carry code, detail, source and value. Drover's message
// stays beside detail, for its own clients. Every answer of the interface
// carries LI-Request-Id, which the live definition declares on each: the
// request's id where a registration made one, otherwise one for the HTTP
// request. This holds as well for the answers written before the route's
// handler runs (a token refused, a rate limit, load shed, a body over the
// limit, a panic): writeRequestProblem hands every error on a registration
// path to writeRegistrationProblem.

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

// registrationSets are the first path segments, after /v1 or /v1.0, of
// the registration interface's routes.
var registrationSets = map[string]bool{
	"animals": true, "requeststatus": true,
	"breeds": true, "deathreasons": true, "genotypes": true, "rejectionreasons": true, "hauliers": true,
}

// registrationPath reports whether path is on the registration interface.
func registrationPath(path string) bool {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if !ok {
		if rest, ok = strings.CutPrefix(path, "/v1.0/"); !ok {
			return false
		}
	}
	// An animal's history (animals/{identifier}/history) is Drover's own
	// and answers problem details.
	if strings.HasPrefix(rest, "animals/") && strings.Count(rest, "/") >= 2 && strings.HasSuffix(rest, "/history") {
		return false
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	return registrationSets[rest]
}

// handleRegistration is handle for the registration interface's routes:
// the same checks, in the same order, with every answer carrying
// LI-Request-Id and errors in the live shape (writeRequestProblem).
func (s *Server) handleRegistration(h handlerFunc) http.HandlerFunc {
	next := s.handle(h)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("LI-Request-Id", uuid.NewString())
		dropEmpty(r.Header, "x-Request-Mode", "LI-Request-Mode") // no mode is sync, the live definition says
		next(w, r)
	}
}

// lisStatuses are the statuses the registration interface answers in
// place of Drover's usual ones, because the live definition declares no
// such status there and animal-registration.md binds none: a body over
// the limit is a request that cannot be taken (400, S011), and a request
// that ran out of time is the unavailability the definition declares
// (503, with Retry-After) rather than a 504.
var lisStatuses = map[int]int{
	http.StatusRequestEntityTooLarge: http.StatusBadRequest,
	http.StatusGatewayTimeout:        http.StatusServiceUnavailable,
}

// writeRegistrationProblem writes e, an error of the registration
// interface, in the live shape, as writeRequestProblem does the others,
// as mediaType.
func writeRegistrationProblem(w http.ResponseWriter, e *livestock.Error, mediaType string) {
	status, ok := kindStatus[e.Kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	if len(e.Fields) > 0 && e.Fields[0].Code == livestock.CodeTimeout {
		status = http.StatusGatewayTimeout
	}
	if to, ok := lisStatuses[status]; ok {
		status = to
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
	if h.Get("LI-Request-Id") == "" {
		h.Set("LI-Request-Id", uuid.NewString())
	}
	if (status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests) && h.Get("Retry-After") == "" {
		h.Set("Retry-After", "1")
	}
	h.Set("Content-Type", mediaType)
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
