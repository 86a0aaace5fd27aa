package openapi

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/drover-registry/drover/internal/livestock"
)

// collector gathers the FieldErrors of one failed validation.
type collector struct {
	out  []livestock.FieldError
	data []byte // the JSON body, once checkJSON has read it
}

func (c *collector) add(code livestock.Code, source, message, value string) {
	c.out = append(c.out, livestock.FieldError{Code: code, Message: message, Source: source, Value: value})
}

// maxErrors bounds the errors reported for one request: enough to fix any
// honest request, and a problem body of bounded size for a hostile one.
const maxErrors = 100

// result is every error once, in a stable order (body pointers first, then
// parameters, each by source), at most maxErrors of them. An error about
// the whole body (missing, not JSON, not an object) names it as "body",
// as the form endpoints do: its JSON pointer, "", would name nothing.
func (c *collector) result() []livestock.FieldError {
	if len(c.out) == 0 {
		return nil
	}
	c.out = withoutOtherAlternatives(c.out)
	slices.SortFunc(c.out, func(a, b livestock.FieldError) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
	})
	out := slices.Compact(c.out)
	out = out[:min(len(out), maxErrors)]
	for i := range out {
		if out[i].Source == "" {
			out[i].Source = "body"
		}
	}
	return out
}

// request collects the rules broken in err, an error of
// openapi3filter.ValidateRequest.
func (c *collector) request(err error) {
	switch e := err.(type) {
	case openapi3.MultiError:
		for _, x := range e {
			c.request(x)
		}
	case *openapi3filter.RequestError:
		switch {
		case e.Parameter != nil:
			c.parameter(e)
		case e.RequestBody != nil:
			c.body(e)
		default:
			c.add(livestock.CodeSchema, "", "the request does not conform to the OpenAPI document", "")
		}
	case *openapi3filter.SecurityRequirementsError:
		// Authentication belongs to the middleware; the no-op function
		// used here never fails.
	default:
		c.add(livestock.CodeSchema, "", "the request does not conform to the OpenAPI document", "")
	}
}

func (c *collector) parameter(e *openapi3filter.RequestError) {
	p := e.Parameter
	src := p.In + ":" + p.Name
	var pe *openapi3filter.ParseError
	switch {
	case errors.Is(e.Err, openapi3filter.ErrInvalidRequired):
		c.add(livestock.CodeMissing, src, "is required", "")
	case errors.Is(e.Err, openapi3filter.ErrInvalidEmptyValue):
		c.add(livestock.CodeMissing, src, "must not be empty", "")
	case errors.As(e.Err, &pe):
		value := valueText(pe.Value)
		switch {
		case errors.Is(pe, strconv.ErrRange):
			c.add(livestock.CodeBadFormat, src, "is out of range", value)
		case pe.Kind == openapi3filter.KindInvalidFormat && p.Schema != nil && p.Schema.Value != nil:
			c.add(livestock.CodeWrongType, src, typePhrase(p.Schema.Value.Type.Slice()), value)
		default:
			c.add(livestock.CodeBadFormat, src, "is not in the form this parameter takes", value)
		}
	default:
		if values := ignoreCaseEnum(p.Schema); values != nil {
			var se *openapi3.SchemaError
			var value string
			if errors.As(e.Err, &se) {
				value = valueText(se.Value)
			}
			c.add(livestock.CodeBadEnum, src, enumPhrase(values)+" (in any letter case)", value)
			return
		}
		c.schema(e.Err, src)
	}
}

// ignoreCaseEnum is the x-enumIgnoreCase list of a parameter's schema, or
// nil. JSON Schema has no enum that ignores letter case, so such a schema
// states its rule as a pattern (^([sS][yY][nN][cC]|…)$) and names the values
// in x-enumIgnoreCase; a value that breaks it is then reported as S006
// naming the values, as an enum would be, rather than as S008 quoting the
// pattern. A test holds each pattern to its list.
func ignoreCaseEnum(s *openapi3.SchemaRef) []any {
	if s == nil || s.Value == nil {
		return nil
	}
	values, _ := s.Value.Extensions["x-enumIgnoreCase"].([]any)
	return values
}

func (c *collector) body(e *openapi3filter.RequestError) {
	var tooLarge *http.MaxBytesError
	var pe *openapi3filter.ParseError
	switch {
	case errors.Is(e.Err, openapi3filter.ErrInvalidRequired):
		c.add(livestock.CodeMissing, "", "a request body is required", "")
	case errors.As(e.Err, &tooLarge):
		c.add(livestock.CodeTooLarge, "", "the body is over the size limit", "")
	case e.Err == nil && strings.HasPrefix(e.Reason, "header Content-Type has unexpected value"):
		c.unsupportedType(e)
	case e.Reason == "reading failed":
		c.add(livestock.CodeSchema, "", "the body could not be read", "")
	case errors.As(e.Err, &pe):
		if pe.Kind == openapi3filter.KindUnsupportedFormat {
			c.unsupportedType(e)
			return
		}
		var ct string
		if e.Input != nil && e.Input.Request != nil {
			ct = e.Input.Request.Header.Get("Content-Type")
		}
		if isJSON(ct) {
			c.add(livestock.CodeMalformedJSON, "", "is not well-formed JSON", "")
		} else {
			c.add(livestock.CodeBadFormat, "", "cannot be decoded as "+mediaType(ct), "")
		}
	default:
		c.schema(e.Err, "")
	}
}

func (c *collector) unsupportedType(e *openapi3filter.RequestError) {
	var ct string
	if e.Input != nil && e.Input.Request != nil {
		ct = e.Input.Request.Header.Get("Content-Type")
	}
	accepted := slices.Sorted(maps.Keys(e.RequestBody.Content))
	c.add(livestock.CodeUnsupportedType, "header:Content-Type",
		"must be "+strings.Join(accepted, " or "), valueText(ct))
}

// malformedJSON describes why data is not one JSON value.
func malformedJSON(data []byte) livestock.FieldError {
	msg := "is not well-formed JSON"
	var v any
	var syn *json.SyntaxError
	switch err := json.Unmarshal(data, &v); {
	case errors.As(err, &syn):
		msg = fmt.Sprintf("is not well-formed JSON: %s at byte %d", syn.Error(), syn.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = "is not well-formed JSON: it ends early"
	}
	return livestock.FieldError{Code: livestock.CodeMalformedJSON, Message: msg}
}

// mediaType is the media type of a Content-Type value, read as leniently
// as kin-openapi reads it.
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// notUTF8 refuses a JSON Content-Type whose charset is not UTF-8: JSON
// exchanged between systems is UTF-8 (RFC 8259 §8.1), and a body declared
// latin1 would be read as UTF-8 regardless, its accents mangled or refused.
func notUTF8(ct string) (livestock.FieldError, bool) {
	if !strings.Contains(ct, "=") || !isJSON(ct) { // no parameter, no charset: the usual case costs nothing
		return livestock.FieldError{}, false
	}
	_, params, err := mime.ParseMediaType(ct)
	if cs, ok := params["charset"]; err != nil || !ok || strings.EqualFold(cs, "utf-8") {
		return livestock.FieldError{}, false
	}
	return livestock.FieldError{Code: livestock.CodeUnsupportedType, Source: "header:Content-Type",
		Message: "JSON is UTF-8: the charset, if given, must be utf-8", Value: valueText(ct)}, true
}

// encoded refuses a body sent compressed, or in any coding but identity:
// Drover reads bodies as sent, so a gzip body would be refused as
// malformed JSON, and one declared gzip but sent plain was read as if the
// header were not there.
func encoded(codings []string) (livestock.FieldError, bool) {
	for _, v := range codings {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return livestock.FieldError{Code: livestock.CodeUnsupportedType, Source: "header:Content-Encoding",
					Message: "bodies are taken as sent: leave Content-Encoding out (or identity)", Value: valueText(strings.Join(codings, ", "))}, true
			}
		}
	}
	return livestock.FieldError{}, false
}

func isJSON(ct string) bool {
	mt := mediaType(ct)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// withoutOtherAlternatives drops the wrong-type errors (S003) at a place
// where another rule broke too. A value that fails a choice of schemas
// (such as a deviceApplication that is an object, a date string or null)
// is refused by every alternative: those of another JSON type only say so,
// and the alternative of its own type says what is wrong.
func withoutOtherAlternatives(errs []livestock.FieldError) []livestock.FieldError {
	other := map[string]bool{}
	for _, e := range errs {
		if e.Code != livestock.CodeWrongType {
			other[e.Source] = true
		}
	}
	return slices.DeleteFunc(errs, func(e livestock.FieldError) bool {
		return e.Code == livestock.CodeWrongType && other[e.Source]
	})
}
