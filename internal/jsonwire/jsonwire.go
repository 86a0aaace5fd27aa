// Package jsonwire reads the JSON bodies of the interfaces into Go
// structs, as JSON Schema reads them rather than as encoding/json does.
//
// The one difference that matters: a schema's "integer" is any number
// whose value is whole, so 2026.0 and 2.026e3 are integers, and the
// OpenAPI validator lets them through; encoding/json refuses to read them
// into an int. Decode reads them as the integers they are.
package jsonwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// Decode reads data into v, refusing members v has no field for. When
// the only trouble is a whole number written with a fraction or an
// exponent where v wants an integer, it reads the body again with such
// numbers written plainly; an ordinary body is read once.
func Decode(data []byte, v any) error {
	err := decode(data, v)
	if te, ok := err.(*json.UnmarshalTypeError); ok && isInteger(te.Type) && strings.HasPrefix(te.Value, "number ") {
		if plain, changed := WholeNumbers(data); changed {
			return decode(plain, v)
		}
	}
	return err
}

func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func isInteger(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// WholeNumbers rewrites each number of a JSON text that has a fraction
// or an exponent, and whose value is whole, as an integer (2.026e3 is
// 2026, -0.0 is 0); strings and every other number are left as written.
// It reports whether it changed anything. The text is taken to be
// well-formed JSON; a number is read exactly, not as a float64.
func WholeNumbers(data []byte) ([]byte, bool) {
	var out []byte
	last := 0 // data[last:] is not yet copied to out
	for i := 0; i < len(data); {
		switch c := data[i]; {
		case c == '"':
			i = stringEnd(data, i)
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(data) && strings.IndexByte("0123456789.eE+-", data[j]) >= 0 {
				j++
			}
			if n := data[i:j]; bytes.ContainsAny(n, ".eE") && smallExponent(n) {
				if r, ok := new(big.Rat).SetString(string(n)); ok && r.IsInt() {
					out = append(append(out, data[last:i]...), r.Num().String()...)
					last = j
				}
			}
			i = j
		default:
			i++
		}
	}
	if out == nil {
		return data, false
	}
	return append(out, data[last:]...), true
}

// smallExponent reports whether a number's exponent, if any, is at most
// 30 either way: no integer field holds more than 20 digits, and reading
// 1e999999999 exactly would take a gigabyte.
func smallExponent(n []byte) bool {
	i := bytes.IndexAny(n, "eE")
	if i < 0 {
		return true
	}
	e, err := strconv.Atoi(string(n[i+1:]))
	return err == nil && e >= -30 && e <= 30
}

// stringEnd is the index just past the string that starts at data[i].
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(data)
}

// Problem says where in a body and what is wrong with it, for an error of
// Decode, in the terms of JSON rather than of the Go types it is read
// into; root is the JSON pointer of what was decoded ("" for the whole
// body). encoding/json names the field by its path without array
// indices, so the pointer of a value inside an array names its property,
// not its element.
func Problem(err error, root string) (source, msg string) {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		source = root
		if e.Field != "" {
			source += "/" + strings.ReplaceAll(e.Field, ".", "/")
		}
		if n, ok := strings.CutPrefix(e.Value, "number "); ok && isInteger(e.Type) && integerText(n) {
			// An integer, past what the field holds (2^63 and up for an id).
			return source, fmt.Sprintf("%s is out of range: %s is too large a number for it", source, n)
		}
		return source, fmt.Sprintf("%s must be %s, not %s", source, jsonType(e.Type), e.Value)
	case *json.SyntaxError:
		return root, "not well-formed JSON at byte " + strconv.FormatInt(e.Offset, 10)
	}
	return root, strings.TrimPrefix(err.Error(), "json: ")
}

// integerText reports whether a JSON number is written as an integer.
func integerText(n string) bool {
	n = strings.TrimPrefix(n, "-")
	return n != "" && strings.Trim(n, "0123456789") == ""
}

// jsonType names the JSON type a Go type is read from.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "a JSON value of another type"
}
