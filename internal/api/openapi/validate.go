package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/drover-registry/drover/internal/livestock"
)

// validateOptions: every broken rule, not only the first; no
// authentication (the middleware has done it, with better errors); and
// no defaults written into the request, so that what the handler reads is
// what the client sent.
var validateOptions = newOptions(false)

// parameterOptions skip the body, once it is known to be unreadable.
var parameterOptions = newOptions(true)

func newOptions(skipBody bool) *openapi3filter.Options {
	o := &openapi3filter.Options{
		MultiError:          true,
		AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
		SkipSettingDefaults: true,
		ExcludeRequestBody:  skipBody,
	}
	// kin-openapi renders each error's message as it builds the error tree,
	// and by default a message holds the schema and the value, indented:
	// for a value 10,000 arrays deep that is a gigabyte of spaces. We read
	// the errors' fields, never their messages, so keep messages short.
	o.WithCustomSchemaErrorFunc(func(e *openapi3.SchemaError) string {
		if e.Reason != "" {
			return e.Reason
		}
		return "does not match the schema"
	})
	return o
}

// ValidateRequest checks r against the operation documented for its method
// at pathTemplate (the chi route pattern, written like the document's path
// template) and returns every broken rule, or nil when r conforms.
// pathParams holds the decoded values of the template's parameters.
//
// Each FieldError's Source says where the rule broke:
//
//   - a JSON pointer into the body, such as "/content/animalCount", naming
//     the unknown property for S004 and the missing one for S002; the empty
//     string is the body as a whole (missing, not JSON, too large);
//   - "<in>:<name>" for a parameter, <in> being path, query, header or
//     cookie: "path:list", "query:$top", "header:X-Correlation-ID". A rule
//     broken inside a structured parameter appends a pointer:
//     "query:ids/2".
//
// The errors are sorted by Source; at most 100 are returned.
//
// r.Body is read and replaced with an equivalent reader, so the handler
// can still read it. If the body is over an http.MaxBytesReader limit the
// result is one FieldError with code S011 (livestock.CodeTooLarge), which
// the caller answers with 413 rather than 400.
//
// ValidateRequest returns nil for an operation the document does not have:
// a test holds the router and the document to the same set of routes.
// It never panics, whatever r holds.
func (d *Doc) ValidateRequest(r *http.Request, pathTemplate string, pathParams map[string]string) (errs []livestock.FieldError) {
	route := d.routes[Operation{Method: r.Method, Path: pathTemplate}]
	if route == nil {
		return nil
	}
	defer func() {
		// kin-openapi has had panics on hostile input; a request that makes
		// it panic is refused rather than taking the handler down.
		if recover() != nil {
			errs = []livestock.FieldError{{
				Code:    livestock.CodeSchema,
				Message: "the request could not be checked against the OpenAPI document",
			}}
		}
	}()
	if f, ok := nulParameter(r, pathParams); ok {
		return []livestock.FieldError{f}
	}
	if f, ok := repeatedParameter(r, route); ok {
		return []livestock.FieldError{f}
	}
	var c collector
	if route.Operation.RequestBody != nil {
		if f, ok := notUTF8(r.Header.Get("Content-Type")); ok {
			return []livestock.FieldError{f}
		}
		if f, ok := encoded(r.Header.Values("Content-Encoding")); ok {
			return []livestock.FieldError{f}
		}
	}
	opts := validateOptions
	if route.Operation.RequestBody != nil && isJSON(r.Header.Get("Content-Type")) {
		if !c.checkJSON(r) {
			opts = parameterOptions
		}
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: pathParams,
		Route:      route,
		Options:    opts,
	}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		c.request(err)
	}
	return c.result()
}

// nulParameter finds a path or query parameter (or a query parameter's
// name) holding U+0000, written %00, which no text may hold: PostgreSQL's
// text cannot, and no parameter has a use for it.
func nulParameter(r *http.Request, pathParams map[string]string) (livestock.FieldError, bool) {
	// The name and the value are echoed as other errors echo them: valid
	// UTF-8, of bounded length, with U+0000 written out.
	bad := func(source, value string) (livestock.FieldError, bool) {
		return livestock.FieldError{Code: livestock.CodeBadFormat, Source: valueText(source), Value: valueText(strings.ReplaceAll(value, "\x00", `\u0000`)),
			Message: "holds the character U+0000 (%00), which no text may hold"}, true
	}
	names := make([]string, 0, len(pathParams))
	for name := range pathParams {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := pathParams[name]
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		if strings.IndexByte(v, 0) >= 0 {
			return bad("path:"+name, v)
		}
	}
	if f, ok := nulValue(r.URL.RawQuery, "query:", bad); ok {
		return f, true
	}
	if r.Body == nil || r.Body == http.NoBody || mediaType(r.Header.Get("Content-Type")) != "application/x-www-form-urlencoded" {
		return livestock.FieldError{}, false
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		// The body's own check reports it (too large, cut off): it reads
		// the same bytes and then the same error.
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), failedReader{err}))
		return livestock.FieldError{}, false
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	return nulValue(string(data), "form:", bad)
}

// repeatedParameter finds a query parameter the operation declares with
// one value that the request gives more than once: which of them was
// meant cannot be known, and taking the first would answer a question not
// asked. OData's system options ("$top") are left to the OData parser,
// which refuses them given twice in any spelling.
func repeatedParameter(r *http.Request, route *routers.Route) (livestock.FieldError, bool) {
	if r.URL.RawQuery == "" || !strings.Contains(r.URL.RawQuery, "&") {
		return livestock.FieldError{}, false
	}
	query := r.URL.Query()
	for _, params := range []openapi3.Parameters{route.PathItem.Parameters, route.Operation.Parameters} {
		for _, ref := range params {
			p := ref.Value
			if p == nil || p.In != openapi3.ParameterInQuery || strings.HasPrefix(p.Name, "$") ||
				(p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Type.Is(openapi3.TypeArray)) {
				continue
			}
			if v := query[p.Name]; len(v) > 1 {
				return livestock.FieldError{Code: livestock.CodeBadQuery, Source: valueText("query:" + p.Name),
					Value:   valueText(strings.Join(v, ", ")),
					Message: fmt.Sprintf("is given %d times; give it at most once", len(v))}, true
			}
		}
	}
	return livestock.FieldError{}, false
}

// failedReader is a body's read error, given again to the next reader.
type failedReader struct{ err error }

func (f failedReader) Read([]byte) (int, error) { return 0, f.err }

// nulValue finds a name or value holding U+0000 in URL-encoded text (a
// query, a form body); source prefixes the name in the error bad makes.
func nulValue(encoded, source string, bad func(source, value string) (livestock.FieldError, bool)) (livestock.FieldError, bool) {
	if !strings.Contains(encoded, "%00") && strings.IndexByte(encoded, 0) < 0 {
		return livestock.FieldError{}, false
	}
	values, _ := url.ParseQuery(encoded) // what parses; the parameters' own check reports the rest
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if strings.IndexByte(name, 0) >= 0 {
			return bad(source+strings.ReplaceAll(name, "\x00", `\u0000`), "")
		}
		for _, v := range values[name] {
			if strings.IndexByte(v, 0) >= 0 {
				return bad(source+name, v)
			}
		}
	}
	return livestock.FieldError{}, false
}

// invalidUTF8At is the offset of the first byte of data that is not part
// of a UTF-8 character, or len(data).
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// checkJSON reads r.Body, puts back an equivalent reader, and reports
// whether the body is empty or one well-formed JSON value. kin-openapi
// decodes only the first value of a body, so `{"a":1}}` would pass it.
func (c *collector) checkJSON(r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	data, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(data))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		c.add(livestock.CodeTooLarge, "", "the body is over the size limit", "")
		return false
	case err != nil:
		c.add(livestock.CodeSchema, "", "the body could not be read", "")
		return false
	case !utf8.Valid(data):
		// JSON between systems is UTF-8 (RFC 8259 §8.1); encoding/json
		// would quietly turn each bad byte into U+FFFD and store that.
		c.add(livestock.CodeMalformedJSON, "", fmt.Sprintf("is not UTF-8 text: byte %d is not part of a UTF-8 character", invalidUTF8At(data)), "")
		return false
	case len(data) > 0 && !json.Valid(data):
		c.out = append(c.out, malformedJSON(data))
		return false
	}
	if at, msg, code, ok := shapeProblem(data); !ok {
		c.add(code, at, msg, "")
		return false
	}
	if at, msg, ok := strictProblem(data); !ok {
		c.add(livestock.CodeMalformedJSON, source("", at), msg, "")
		return false
	}
	c.data = data
	return true
}
