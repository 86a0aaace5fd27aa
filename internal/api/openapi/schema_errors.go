package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/drover-registry/drover/internal/livestock"
)

// kin-openapi checks a schema in one of two ways, and its errors differ:
// with the JSON Schema 2020-12 validator (errors carry a
// *jsonschema.ValidationError whose ErrorKind says which rule broke and
// with what figures), or, for schemas that use component references and no
// 2020-only keyword, with its own validator (errors carry the failing
// schema and a SchemaField naming the keyword). Both are handled; the
// tests exercise both.

// schema collects the rules broken in err, a tree of SchemaErrors. prefix
// is "" for the body or "<in>:<name>" for a parameter.
func (c *collector) schema(err error, prefix string) {
	var me openapi3.MultiError
	var se *openapi3.SchemaError
	switch {
	case errors.As(err, &me) && len(me) > 0:
		for _, x := range me {
			c.schema(x, prefix)
		}
	case errors.As(err, &se):
		c.schemaError(se, prefix)
	default:
		c.add(livestock.CodeSchema, prefix, "does not conform to the OpenAPI document", "")
	}
}

func (c *collector) schemaError(e *openapi3.SchemaError, prefix string) {
	switch e.SchemaField {
	case "oneOf", "anyOf", "not":
		// The errors of each alternative would only confuse: say which
		// rule of choice failed.
		c.add(livestock.CodeSchema, source(prefix, e.JSONPointer()), combinatorPhrase(e.SchemaField), valueText(e.Value))
		return
	}
	if e.Origin != nil {
		var me openapi3.MultiError
		if errors.As(e.Origin, &me) && len(me) > 0 {
			c.schema(me, prefix)
			return
		}
		var inner *openapi3.SchemaError
		if errors.As(e.Origin, &inner) {
			c.schemaError(inner, prefix)
			return
		}
	}
	var ve *jsonschema.ValidationError
	if e.Origin == nil && errors.As(e, &ve) {
		c.jsonSchemaRule(e, ve.ErrorKind, prefix)
		return
	}
	c.kinRule(e, prefix)
}

// jsonSchemaRule reports one rule broken, as found by the 2020-12 validator.
func (c *collector) jsonSchemaRule(e *openapi3.SchemaError, k jsonschema.ErrorKind, prefix string) {
	at := e.JSONPointer()
	src := source(prefix, at)
	val := c.valueAt(prefix, at, e.Value)
	switch k := k.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			c.add(livestock.CodeMissing, source(prefix, append(at, name)), "is required", "")
		}
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			c.unknownProperty(e.Value, prefix, at, name)
		}
	case *kind.FalseSchema:
		c.add(livestock.CodeUnknownField, src, "is not allowed here", val)
	case *kind.Type:
		c.add(livestock.CodeWrongType, src, typePhrase(k.Want), val)
	case *kind.InvalidJsonValue:
		c.add(livestock.CodeWrongType, src, "is not a JSON value", "")
	case *kind.Enum:
		c.add(livestock.CodeBadEnum, src, enumPhrase(k.Want), val)
	case *kind.Const:
		c.add(livestock.CodeBadEnum, src, enumPhrase([]any{k.Want}), val)
	case *kind.MinLength:
		c.add(livestock.CodeBadLength, src, minLengthPhrase(uint64(k.Want)), val)
	case *kind.MaxLength:
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must be at most %d characters long", k.Want), val)
	case *kind.MinItems:
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at least %d items", k.Want), val)
	case *kind.MaxItems:
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at most %d items", k.Want), val)
	case *kind.MinProperties:
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at least %d properties", k.Want), val)
	case *kind.MaxProperties:
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at most %d properties", k.Want), val)
	case *kind.Pattern:
		c.add(livestock.CodeBadFormat, src, "must match the pattern "+k.Want, val)
	case *kind.Format:
		c.add(livestock.CodeBadFormat, src, formatPhrase(k.Want), val)
	case *kind.Minimum:
		c.add(livestock.CodeBadFormat, src, "must be at least "+k.Want.RatString(), val)
	case *kind.Maximum:
		c.add(livestock.CodeBadFormat, src, "must be at most "+k.Want.RatString(), val)
	case *kind.ExclusiveMinimum:
		c.add(livestock.CodeBadFormat, src, "must be greater than "+k.Want.RatString(), val)
	case *kind.ExclusiveMaximum:
		c.add(livestock.CodeBadFormat, src, "must be less than "+k.Want.RatString(), val)
	case *kind.MultipleOf:
		c.add(livestock.CodeBadFormat, src, "must be a multiple of "+k.Want.RatString(), val)
	case *kind.UniqueItems:
		c.add(livestock.CodeBadFormat, src, "must not repeat an item", val)
	default:
		c.add(livestock.CodeSchema, src, rulePhrase(e.SchemaField), val)
	}
}

// kinRule reports one rule broken, as found by kin-openapi's own validator.
func (c *collector) kinRule(e *openapi3.SchemaError, prefix string) {
	at := e.JSONPointer()
	src := source(prefix, at)
	val := c.valueAt(prefix, at, e.Value)
	s := e.Schema
	if s == nil {
		s = &openapi3.Schema{}
	}
	switch e.SchemaField {
	case "required": // the pointer already names the missing property
		c.add(livestock.CodeMissing, src, "is required", "")
	case "properties":
		name, ok := strings.CutPrefix(e.Reason, "property ")
		name, ok2 := strings.CutSuffix(name, " is unsupported")
		if uq, err := strconv.Unquote(name); ok && ok2 && err == nil {
			c.unknownProperty(e.Value, prefix, at, uq)
			return
		}
		c.add(livestock.CodeSchema, src, rulePhrase(e.SchemaField), val)
	case "type", "nullable":
		c.add(livestock.CodeWrongType, src, typePhrase(s.Type.Slice()), val)
	case "enum":
		c.add(livestock.CodeBadEnum, src, enumPhrase(s.Enum), val)
	case "minLength":
		c.add(livestock.CodeBadLength, src, minLengthPhrase(s.MinLength), val)
	case "maxLength":
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must be at most %s characters long", uintText(s.MaxLength)), val)
	case "minItems":
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at least %d items", s.MinItems), val)
	case "maxItems":
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at most %s items", uintText(s.MaxItems)), val)
	case "minProperties":
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at least %d properties", s.MinProps), val)
	case "maxProperties":
		c.add(livestock.CodeBadLength, src, fmt.Sprintf("must have at most %s properties", uintText(s.MaxProps)), val)
	case "pattern":
		c.add(livestock.CodeBadFormat, src, "must match the pattern "+s.Pattern, val)
	case "format":
		c.add(livestock.CodeBadFormat, src, formatPhrase(s.Format), val)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		// kin's reasons here name the bound, never the value.
		c.add(livestock.CodeBadFormat, src, strings.TrimPrefix(e.Reason, "number "), val)
	case "multipleOf":
		c.add(livestock.CodeBadFormat, src, "must be a multiple of "+floatText(s.MultipleOf), val)
	case "uniqueItems":
		c.add(livestock.CodeBadFormat, src, "must not repeat an item", val)
	case "readOnly":
		c.add(livestock.CodeUnknownField, src, "is read-only: it may not be sent", val)
	default:
		c.add(livestock.CodeSchema, src, rulePhrase(e.SchemaField), val)
	}
}

// unknownProperty reports property name of the object obj at "at".
func (c *collector) unknownProperty(obj any, prefix string, at []string, name string) {
	var val string
	if m, ok := obj.(map[string]any); ok {
		val = valueText(m[name])
	}
	c.add(livestock.CodeUnknownField, source(prefix, append(at, name)),
		fmt.Sprintf("property %q is not allowed", name), val)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// source joins a parameter prefix (or "" for the body) and a JSON pointer.
func source(prefix string, tokens []string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(t))
	}
	return b.String()
}

// valueAt is valueText of v, the value at the pointer at under prefix. A
// number in the body is echoed as the body wrote it: kin-openapi's
// visitor has read it into a float64, which rounds one of more than 15
// digits (12345678901234567890 came back as 12345678901234567000).
func (c *collector) valueAt(prefix string, at []string, v any) string {
	if _, isFloat := v.(float64); isFloat && prefix == "" && c.data != nil {
		if n, ok := numberAt(c.data, at); ok {
			return valueText(n)
		}
	}
	return valueText(v)
}

// numberAt is the number at the pointer at in a JSON body, as written.
// It decodes the whole body, which only a refused request pays for.
func numberAt(body []byte, at []string) (json.Number, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return "", false
	}
	for _, token := range at {
		switch node := v.(type) {
		case map[string]any:
			v = node[token]
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(node) {
				return "", false
			}
			v = node[i]
		default:
			return "", false
		}
	}
	n, ok := v.(json.Number)
	return n, ok
}

// maxValueRunes bounds how much of an offending value an error echoes.
const maxValueRunes = 100

// valueText renders a value for FieldError.Value: strings as they are,
// other JSON values as JSON, shortened and made valid UTF-8.
func valueText(v any) string {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = v.String()
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		s = string(b)
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= maxValueRunes {
		return s
	}
	r := []rune(s)
	return string(r[:maxValueRunes]) + "…"
}

// minLengthPhrase is the rule of a minLength: at least one character is
// "not be empty".
func minLengthPhrase(n uint64) string {
	if n == 1 {
		return "must not be empty"
	}
	return fmt.Sprintf("must be at least %d characters long", n)
}
