package standing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// MarshalJSON writes e as one flat object: code, description, then the
// extra properties in name order.
func (e Entry) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	write := func(name, value string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name) // strings always marshal
		v, _ := json.Marshal(value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	write("code", e.Code)
	write("description", e.Description)
	for _, name := range slices.Sorted(maps.Keys(e.Extra)) {
		write(name, e.Extra[name])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MaxCodeLength is the longest code an entry may have, in characters: a
// client sends codes back (a breed's in a registration), and the OpenAPI
// document bounds those fields by it.
const MaxCodeLength = 64

// UnmarshalJSON reads a flat object of strings and checks it: the code and
// the description are present and not blank, the code has no surrounding
// space and at most MaxCodeLength characters, and every other property is
// a string.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var props map[string]json.RawMessage
	if err := json.Unmarshal(data, &props); err != nil || props == nil {
		return errors.New("an entry must be a JSON object of strings")
	}
	var out Entry
	for _, name := range slices.Sorted(maps.Keys(props)) {
		var s string
		raw := bytes.TrimSpace(props[name])
		if err := json.Unmarshal(raw, &s); err != nil || bytes.Equal(raw, []byte("null")) {
			return fmt.Errorf("property %q must be a string", name)
		}
		switch name {
		case "code":
			out.Code = s
		case "description":
			out.Description = s
		default:
			if name == "" {
				return errors.New("a property has an empty name")
			}
			if out.Extra == nil {
				out.Extra = make(map[string]string)
			}
			out.Extra[name] = s
		}
	}
	switch {
	case out.Code == "":
		return errors.New(`the entry has no "code"`)
	case strings.TrimSpace(out.Code) != out.Code:
		return fmt.Errorf("the code %q has spaces around it", out.Code)
	case utf8.RuneCountInString(out.Code) > MaxCodeLength:
		return fmt.Errorf("the code %q is longer than %d characters", out.Code, MaxCodeLength)
	case strings.TrimSpace(out.Description) == "":
		return fmt.Errorf(`the entry with code %q has no "description"`, out.Code)
	}
	*e = out
	return nil
}
