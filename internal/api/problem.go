package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// problem is the one error body of the service (RFC 9457), for every 4xx
// and 5xx: application/problem+json.
type problem struct {
	Type   string         `json:"type"`
	Title  string         `json:"title"`
	Status int            `json:"status"`
	Detail string         `json:"detail,omitempty"`
	Errors []problemError `json:"errors"`
	// Error is, on the movements interface's own paths ($metadata, the
	// service document, standing data), the live service's error
	// (claError; its collections answer movementsError instead); on the
	// token endpoint's 400s, RFC 6749 §5.2's error code (a string, with
	// OAuthDescription beside it: oauthError), for the OAuth client
	// libraries that read them. Elsewhere it is absent.
	// The document lets a problem carry more members than it names.
	Error            any    `json:"error,omitempty"`
	OAuthDescription string `json:"error_description,omitempty"`
}

// claError is the movements interface's error as the live service writes
// it: the first rule broken, under the live catalogue's code, and in
// details every rule broken, each naming its field in target.
type claError struct {
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Target  string        `json:"target,omitempty"`
	Details []singleError `json:"details"`
}

type problemError struct {
	Code    livestock.Code `json:"code"`
	Message string         `json:"message"`
	Source  string         `json:"source,omitempty"`
	Value   string         `json:"value,omitempty"`
}

// kindStatus is the one table from error kind to HTTP status.
var kindStatus = map[livestock.Kind]int{
	livestock.KindInvalid:          http.StatusBadRequest,
	livestock.KindUnauthenticated:  http.StatusUnauthorized,
	livestock.KindForbidden:        http.StatusForbidden,
	livestock.KindNotFound:         http.StatusNotFound,
	livestock.KindMethodNotAllowed: http.StatusMethodNotAllowed,
	livestock.KindConflict:         http.StatusConflict,
	livestock.KindTooLarge:         http.StatusRequestEntityTooLarge,
	livestock.KindTooMany:          http.StatusTooManyRequests,
	livestock.KindInternal:         http.StatusInternalServerError,
	livestock.KindUnavailable:      http.StatusServiceUnavailable,
}

// kindCode is the code an error of a kind carries when it names no field.
var kindCode = map[livestock.Kind]livestock.Code{
	livestock.KindInvalid:          livestock.CodeSchema,
	livestock.KindUnauthenticated:  livestock.CodeUnauthenticated,
	livestock.KindForbidden:        livestock.CodeForbidden,
	livestock.KindNotFound:         livestock.CodeNotFound,
	livestock.KindMethodNotAllowed: livestock.CodeNoMethod,
	livestock.KindConflict:         livestock.CodeSchema,
	livestock.KindTooLarge:         livestock.CodeTooLarge,
	livestock.KindTooMany:          livestock.CodeRateLimited,
	livestock.KindInternal:         livestock.CodeInternal,
	livestock.KindUnavailable:      livestock.CodeUnavailable,
}

// asDomainError turns any error into a *livestock.Error that is safe to
// show. Errors that are not domain errors become a generic internal fault;
// their text stays in the log.
func asDomainError(err error) *livestock.Error {
	if errors.Is(err, errDeadline) {
		return &livestock.Error{Kind: livestock.KindUnavailable, Detail: "the request took too long inside the service",
			Fields: []livestock.FieldError{{Code: livestock.CodeTimeout, Message: "timed out; try again"}}, Err: err}
	}
	var e *livestock.Error
	if errors.As(err, &e) {
		return e
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return tooLarge(tooBig.Limit, err)
	}
	return &livestock.Error{Kind: livestock.KindInternal, Detail: "an internal fault; the request can be sent again", Err: err}
}

// tooLarge is the refusal of a body over limit bytes, naming the body as
// its field, whether its length was declared or found while reading.
func tooLarge(limit int64, cause error) *livestock.Error {
	detail := "the request body is over the limit of " + strconv.FormatInt(limit, 10) + " bytes"
	return &livestock.Error{Kind: livestock.KindTooLarge, Detail: detail, Err: cause,
		Fields: []livestock.FieldError{{Code: livestock.CodeTooLarge, Source: "body", Message: detail}}}
}

// writeProblem writes err as the problem body. A timeout answers 504, as
// the movements document lists; every other kind maps through kindStatus.
func writeProblem(w http.ResponseWriter, err error) { writeProblemWith(w, err, nil) }

// writeProblemWith is writeProblem, with extend given the body to add to
// before it is written.
func writeProblemWith(w http.ResponseWriter, err error, extend func(*problem)) {
	writeRequestProblem(w, nil, err, extend)
}

// writeProblemFor is writeProblem for request r: on the movements
// interface the body carries the live error beside the problem's members
// (liveError).
func writeProblemFor(w http.ResponseWriter, r *http.Request, err error) {
	writeRequestProblem(w, r, err, nil)
}

// writeRequestProblem is writeProblemFor with extend (writeProblemWith);
// r may be nil when the request is not known.
func writeRequestProblem(w http.ResponseWriter, r *http.Request, err error, extend func(*problem)) {
	e := asDomainError(err)
	if r != nil && registrationPath(r.URL.Path) {
		writeRegistrationProblem(w, e, problemMediaType(r)) // the live registration shape
		return
	}
	status, ok := kindStatus[e.Kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	if len(e.Fields) > 0 && e.Fields[0].Code == livestock.CodeTimeout {
		status = http.StatusGatewayTimeout
	}
	p := problem{
		Type:   "urn:drover:problem:" + kindSlug(e.Kind),
		Title:  http.StatusText(status),
		Status: status,
		Detail: e.Detail,
	}
	for _, f := range e.Fields {
		p.Errors = append(p.Errors, problemError{Code: f.Code, Message: f.Message, Source: f.Source, Value: truncate(f.Value, 200)})
	}
	if len(p.Errors) == 0 {
		msg := e.Detail
		if msg == "" {
			msg = http.StatusText(status)
		}
		p.Errors = []problemError{{Code: kindCode[e.Kind], Message: msg}}
	}
	var body any = p
	contentType := "application/problem+json"
	if r != nil {
		if ep, ok := movementsEndpoint(r.URL.Path); ok && ep != livestock.EndpointOtherMovement {
			body, contentType = movementsProblem(ep, p), "application/json"
		} else if ok {
			p.Error = liveError(ep, p)
			body = p
		}
	}
	if extend != nil {
		extend(&p)
		body = p
	}
	h := w.Header()
	if status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests {
		if h.Get("Retry-After") == "" {
			h.Set("Retry-After", "1")
		}
	}
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-store")
	h.Del("Content-Length")
	if r != nil && h.Get("OData-Version") == "" && isOData(r.URL.Path) {
		// A refusal made before odataVersion's step (a correlation id, a
		// body too large) is an OData answer too.
		h.Set("OData-Version", "4.0")
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// oauthError adds RFC 6749 §5.2's error and error_description to a 400 of
// the token endpoint, from its first error: a refused grant is
// invalid_grant (invalid_scope when the scope is at fault), an unknown
// grant type unsupported_grant_type, anything else invalid_request.
func oauthError(p *problem) {
	if p.Status != http.StatusBadRequest || len(p.Errors) == 0 {
		return
	}
	first := p.Errors[0]
	code := "invalid_request"
	switch {
	case first.Code == livestock.CodeBadGrant && strings.HasSuffix(first.Source, "scope"):
		code = "invalid_scope"
	case first.Code == livestock.CodeBadGrant:
		code = "invalid_grant"
	case first.Code == livestock.CodeBadEnum && strings.HasSuffix(first.Source, "grant_type"):
		code = "unsupported_grant_type"
	}
	p.Error, p.OAuthDescription = code, first.Message
}

// retryAfter sets Retry-After to d rounded up to whole seconds, at least 1.
func retryAfter(w http.ResponseWriter, d time.Duration) {
	s := int((d + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	w.Header().Set("Retry-After", strconv.Itoa(s))
}

func kindSlug(k livestock.Kind) string {
	switch k {
	case livestock.KindInvalid:
		return "invalid"
	case livestock.KindNotFound:
		return "not-found"
	case livestock.KindConflict:
		return "conflict"
	case livestock.KindForbidden:
		return "forbidden"
	case livestock.KindUnauthenticated:
		return "unauthenticated"
	case livestock.KindUnavailable:
		return "unavailable"
	case livestock.KindTooMany:
		return "too-many-requests"
	case livestock.KindTooLarge:
		return "too-large"
	case livestock.KindMethodNotAllowed:
		return "method-not-allowed"
	}
	return "internal"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
