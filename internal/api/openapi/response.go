package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// genericStatuses are the answers a path the document does not list may
// get, as its Errors section says: 404 for no such path, 405 for a method
// a path does not take, and the answers of the steps that run before a
// route is known (a path that cannot be decoded, 400; a body over the
// limit, 413; a fault, 500). Each is a Problem, or on the registration
// interface's paths a RegistrationProblem (genericProblem).
var genericStatuses = []int{http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed,
	http.StatusRequestEntityTooLarge, http.StatusInternalServerError}

// responseOptions: every problem, with messages short enough to read,
// and a status the operation does not declare is an error.
var responseOptions = func() *openapi3filter.Options {
	o := &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true}
	o.WithCustomSchemaErrorFunc(func(e *openapi3.SchemaError) string {
		return "/" + strings.Join(e.JSONPointer(), "/") + ": " + e.Reason
	})
	return o
}()

// responseTextOptions check a response's status and headers, not its body.
var responseTextOptions = &openapi3filter.Options{IncludeResponseStatus: true, ExcludeResponseBody: true}

// ValidateResponse checks a response the service gave to method on path
// (the request's escaped path, as sent; a query is ignored) against the
// document: the status must be declared for the operation, each required
// header present and well formed, and the body of the declared media type
// and schema. A body where the document declares none is an error too.
// For a path the document does not list, the status must be one of the
// generic answers (genericStatuses) with a Problem body (or, on the
// movements interface, its MovementsError); a 413 is such an answer on
// every path. It returns nil when the response conforms, and
// otherwise an error naming every disagreement. It is meant for tests,
// which hold every response the service gives to the contract.
func (d *Doc) ValidateResponse(method, path string, status int, header http.Header, body []byte) error {
	if method == http.MethodHead {
		return nil
	}
	if err := problemStatus(status, header, body); err != nil {
		return fmt.Errorf("%s %.200q: %d: %w", method, path, status, err)
	}
	template, params, ok := d.match(path)
	route := d.routes[Operation{Method: method, Path: template}]
	if !ok || route == nil {
		return d.validateGeneric(method, path, status, header, body)
	}
	return d.validateRoute(route, method, path, params, status, header, body)
}

func (d *Doc) validateRoute(route *routers.Route, method, path string, params map[string]string, status int, header http.Header, body []byte) error {
	op := fmt.Sprintf("%s %s: %d", method, route.Path, status)
	resp := route.Operation.Responses.Status(status)
	if resp == nil && status == http.StatusRequestEntityTooLarge {
		// The body limit applies before the route is known, so on every
		// path (the document's Errors section says so).
		return d.validateGeneric(method, path, status, header, body)
	}
	if resp == nil {
		return fmt.Errorf("%s: the status is not declared for the operation", op)
	}
	if resp.Value != nil && len(resp.Value.Content) == 0 && len(body) > 0 {
		return fmt.Errorf("%s: the document declares no body, the response has %d bytes (%s)", op, len(body), header.Get("Content-Type"))
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: &http.Request{Method: method, URL: &url.URL{Path: path}, Header: http.Header{}},
			Route:   route, PathParams: params,
		},
		Status: status, Header: header, Body: io.NopCloser(bytes.NewReader(body)), Options: responseOptions,
	}
	if ct := header.Get("Content-Type"); len(resp.Value.Content) > 0 {
		if resp.Value.Content.Get(ct) == nil {
			return fmt.Errorf("%s: Content-Type %q is not declared (declared: %s)", op, ct,
				strings.Join(slices.Sorted(maps.Keys(resp.Value.Content)), ", "))
		}
		if !isJSON(ct) {
			// A text body (the metrics, the docs page and its files) is
			// checked for its media type and headers only: its schema
			// says "string".
			in.Options = responseTextOptions
		}
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s: %s", op, responseErrorText(err))
	}
	return nil
}

// validateGeneric checks the answer to a path the document does not list.
func (d *Doc) validateGeneric(method, path string, status int, header http.Header, body []byte) error {
	op := fmt.Sprintf("%s %.200q (no operation): %d", method, path, status)
	if !slices.Contains(genericStatuses, status) {
		return fmt.Errorf("%s: the status is not one of the generic answers %v", op, genericStatuses)
	}
	// Under the movements interface's live paths the body is its own error
	// body, as application/json; elsewhere a Problem.
	name := "Problem"
	switch ct := mediaType(header.Get("Content-Type")); {
	case ct == "application/problem+json":
		name = d.genericProblem(path)
	case ct == "application/json" && status == http.StatusNotFound:
		name = "MovementsNotFoundError"
	case ct == "application/json":
		name = "MovementsError"
	default:
		return fmt.Errorf("%s: Content-Type %q, want application/problem+json (or application/json on the movements interface)", op, ct)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("%s: the body is not JSON: %v", op, err)
	}
	schema := d.spec.Components.Schemas[name]
	if err := schema.Value.VisitJSON(v, openapi3.MultiErrors(), openapi3.VisitAsResponse()); err != nil {
		return fmt.Errorf("%s: the body is not a %s: %s", op, name, responseErrorText(err))
	}
	return nil
}

// genericProblem is the schema of a generic answer on path: the
// registration interface's RegistrationProblem when the path's first
// segment after /v1 (or /v1.0) is that of an operation tagged
// Registration, as the service writes it, else Problem.
func (d *Doc) genericProblem(path string) string {
	first := func(p string) string {
		rest, ok := strings.CutPrefix(p, "/v1/")
		if !ok {
			if rest, ok = strings.CutPrefix(p, "/v1.0/"); !ok {
				return ""
			}
		}
		seg, _, _ := strings.Cut(rest, "/")
		return seg
	}
	seg := first(path)
	for template, item := range d.spec.Paths.Map() {
		if seg == "" || first(template) != seg {
			continue
		}
		for _, op := range item.Operations() {
			if slices.Contains(op.Tags, "Registration") {
				return "RegistrationProblem"
			}
		}
	}
	return "Problem"
}

// responseErrorText flattens kin-openapi's error tree into one line per
// problem, at most 20 of them.
func responseErrorText(err error) string {
	var lines []string
	var walk func(error)
	walk = func(err error) {
		var multi openapi3.MultiError
		var re *openapi3filter.ResponseError
		var se *openapi3.SchemaError
		switch {
		case errors.As(err, &multi):
			for _, e := range multi {
				walk(e)
			}
		case errors.As(err, &re) && re.Err != nil:
			lines = append(lines, re.Reason)
			walk(re.Err)
		case errors.As(err, &se):
			lines = append(lines, fmt.Sprintf("  /%s: %s", strings.Join(se.JSONPointer(), "/"), se.Reason))
		default:
			lines = append(lines, err.Error())
		}
	}
	walk(err)
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("… and %d more", len(lines)-20))
	}
	return strings.Join(lines, "\n")
}

// problemStatus checks that a Problem's status is the response's: RFC
// 9457 makes the member advisory, but a client that logs the body alone
// must not see another status than the one it got.
func problemStatus(status int, header http.Header, body []byte) error {
	if mediaType(header.Get("Content-Type")) != "application/problem+json" {
		return nil
	}
	var p struct {
		Status *int `json:"status"`
	}
	if err := json.Unmarshal(body, &p); err == nil && p.Status != nil && *p.Status != status {
		return fmt.Errorf("the problem's status is %d", *p.Status)
	}
	return nil
}
