package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// Kind says how an answer breaks the live definition.
type Kind string

const (
	KindStatus    Kind = "status"     // the operation does not declare the status
	KindMediaType Kind = "media type" // the status declares no such Content-Type (or no body at all)
	KindBody      Kind = "body"       // the body does not match the declared schema
	KindHeader    Kind = "header"     // a declared header is missing or malformed
)

// Violation is one answer that breaks the live definition: the operation,
// the status, how, and one line per disagreement.
type Violation struct {
	Operation string // as Operation.String writes it
	Status    int
	Kind      Kind
	Details   []string
}

func (v *Violation) Error() string {
	lines := v.Details
	if len(lines) > 30 {
		lines = append(lines[:30:30], fmt.Sprintf("… and %d more", len(lines)-30))
	}
	return fmt.Sprintf("live %s: %d: %s:\n  %s", v.Operation, v.Status, v.Kind, strings.Join(lines, "\n  "))
}

var responseOptions = &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true}

// Check holds one answer Drover gave to method on path (escaped, as sent)
// against the live operation that path calls. It returns nil when the path
// is no live path (op nil) or the answer conforms, and otherwise a
// *Violation.
func (c *Contract) Check(method, path string, status int, header http.Header, body []byte) (op *Operation, err error) {
	if op = c.Find(method, path); op == nil || method == http.MethodHead {
		return op, nil
	}
	fail := func(kind Kind, details ...string) error {
		return &Violation{Operation: op.String(), Status: status, Kind: kind, Details: details}
	}
	resp := op.route.Operation.Responses.Status(status)
	if resp == nil || resp.Value == nil {
		if claInfrastructureAnswer(op, status) {
			return op, checkCLAError(op, header, body, fail)
		}
		if securityAnswer(op.Def, status) {
			return op, nil
		}
		return op, fail(KindStatus, "declared: "+strings.Join(slices.Sorted(maps.Keys(op.route.Operation.Responses.Map())), ", "))
	}
	content := resp.Value.Content
	ct, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	if alias, ok := mediaTypeAliases[ct]; ok && content.Get(ct) == nil {
		ct = alias
	}
	if len(content) == 0 {
		if len(body) > 0 {
			return op, fail(KindMediaType, fmt.Sprintf("no body declared; got %d bytes of %q", len(body), ct))
		}
		return op, nil
	}
	mt := content.Get(ct)
	if mt == nil {
		return op, fail(KindMediaType, fmt.Sprintf("Content-Type %q; declared: %s", header.Get("Content-Type"),
			strings.Join(slices.Sorted(maps.Keys(content)), ", ")))
	}
	if ct == "text/plain" {
		if err := checkPlain(mt.Schema, body); err != nil {
			return op, fail(KindBody, err.Error())
		}
		body = nil
	} else if op.Def == "CLA" {
		var stripped []string
		if body, stripped = withoutODataControl(body); len(stripped) > 0 {
			return op, fail(KindBody, "OData control members of the wrong type: "+strings.Join(stripped, ", "))
		}
	}
	h := header.Clone()
	h.Set("Content-Type", ct)
	opts := *responseOptions
	if body == nil {
		opts.ExcludeResponseBody = true
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: &http.Request{Method: method, URL: &url.URL{Path: path}, Header: http.Header{}},
			Route:   op.route,
		},
		Status: status, Header: h, Body: io.NopCloser(bytes.NewReader(body)), Options: &opts,
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		lines, kind := describe(err)
		return op, fail(kind, lines...)
	}
	return op, nil
}

// checkCLAError holds an error answer of a status the CLA operation does
// not declare (oddities.go, oddity 7) to the live error body.
func checkCLAError(op *Operation, header http.Header, body []byte, fail func(Kind, ...string) error) error {
	if ct, _, _ := mime.ParseMediaType(header.Get("Content-Type")); ct != "application/json" {
		return fail(KindMediaType, fmt.Sprintf("Content-Type %q; the live error body is application/json", header.Get("Content-Type")))
	}
	ref := op.route.Spec.Components.Schemas[claErrorSchema]
	if ref == nil || ref.Value == nil {
		return fail(KindBody, "the CLA definition has no "+claErrorSchema)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fail(KindBody, "not JSON: "+err.Error())
	}
	if err := ref.Value.VisitJSON(v, openapi3.MultiErrors(), openapi3.VisitAsResponse()); err != nil {
		lines, _ := describe(err)
		return fail(KindBody, lines...)
	}
	return nil
}

// withoutODataControl is a JSON object body without the OData control
// members at its top (oddities.go, oddity 1); other bodies are returned
// as they are.
func withoutODataControl(body []byte) ([]byte, []string) {
	var obj map[string]any
	if json.Unmarshal(body, &obj) != nil || obj == nil {
		return body, nil
	}
	bad := stripODataControl(obj)
	out, err := json.Marshal(obj)
	if err != nil {
		return body, nil
	}
	return out, bad
}

// checkPlain checks a text/plain body (the /$count answers) against an
// integer or string schema: kin-openapi reads such a body as a string.
func checkPlain(s *openapi3.SchemaRef, body []byte) error {
	if s == nil || s.Value == nil || !s.Value.Type.Is("integer") {
		return nil
	}
	if _, err := strconv.ParseInt(strings.TrimSpace(string(body)), 10, 32); err != nil {
		return fmt.Errorf("want an int32 as text; got %.40q", body)
	}
	return nil
}

// describe flattens kin-openapi's error tree into one line per problem
// and says whether it is about a header or the body.
func describe(err error) ([]string, Kind) {
	var lines []string
	kind := KindBody
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case openapi3.MultiError:
			for _, e := range e {
				walk(e)
			}
			return
		case *openapi3filter.ResponseError:
			if strings.Contains(e.Reason, "header") {
				kind = KindHeader
				lines = append(lines, e.Reason)
			}
			if e.Err != nil {
				walk(e.Err)
			} else {
				lines = append(lines, e.Reason)
			}
			return
		}
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			reason, _, _ := strings.Cut(se.Reason, " (string doesn't match pattern") // the format's name says it
			lines = append(lines, fmt.Sprintf("/%s: %s", strings.Join(se.JSONPointer(), "/"), reason))
			if se.Origin != nil { // an allOf or a oneOf says why only here
				walk(se.Origin)
			}
			return
		}
		lines = append(lines, err.Error())
	}
	walk(err)
	slices.Sort(lines)
	return slices.Compact(lines), kind
}
