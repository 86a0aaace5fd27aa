package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// strictProblem reads a well-formed JSON body for two things json.Valid
// lets pass and Drover refuses, and says where the first is, as JSON
// pointer tokens, with a message; ok when there is neither:
//
//   - A name twice in one object. RFC 8259 §4 says names SHOULD be unique
//     and leaves what a duplicate means to the reader: Go's decoder takes
//     the last, others the first, so `{"animalCount": 1, "animalCount":
//     500}` would mean one thing to a proxy or a log and another to the
//     registry. I-JSON (RFC 7493 §2.3) forbids it.
//   - An escaped half of a UTF-16 surrogate pair, such as "\ud800" alone.
//     It is no character; encoding/json would store U+FFFD in its place
//     (I-JSON §2.1 forbids it too).
//
// It costs one pass over the bytes, and allocates nothing for a body of
// ordinary shape (shapeProblem has bounded the nesting and the members).
func strictProblem(data []byte) (at []string, message string, ok bool) {
	type frame struct {
		object bool
		names  int    // where this object's names begin in names
		key    []byte // the current member's name, raw (between the quotes)
		index  int    // the current item, in an array
	}
	var stackBuf [16]frame
	var namesBuf [64][]byte
	stack, names := stackBuf[:0], namesBuf[:0]
	pointer := func() []string {
		tokens := make([]string, len(stack))
		for i, f := range stack {
			if f.object {
				tokens[i] = unquote(f.key)
			} else {
				tokens[i] = strconv.Itoa(f.index)
			}
		}
		return tokens
	}
	expectKey := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			stack = append(stack, frame{object: c == '{', names: len(names)})
			expectKey = c == '{'
		case '}', ']':
			names = names[:stack[len(stack)-1].names]
			stack = stack[:len(stack)-1]
		case ',':
			if f := &stack[len(stack)-1]; f.object {
				expectKey = true
			} else {
				f.index++
			}
		case '"':
			end, lone := stringEnd(data, i)
			raw := data[i+1 : end]
			i = end
			if expectKey {
				expectKey = false
				f := &stack[len(stack)-1]
				f.key = raw
				if lone != "" {
					return pointer(), loneSurrogate(lone, true), false
				}
				for _, n := range names[f.names:] {
					if sameName(n, raw) {
						return pointer(), "is a name this object already has: each name may appear once (RFC 8259 §4, RFC 7493 §2.3)", false
					}
				}
				names = append(names, raw)
			} else if lone != "" {
				return pointer(), loneSurrogate(lone, false), false
			}
		}
	}
	return nil, "", true
}

func loneSurrogate(escape string, name bool) string {
	what := "a string"
	if name {
		what = "a name"
	}
	return fmt.Sprintf(`holds %s with the escape \%s, half of a UTF-16 surrogate pair without its other half: it is no character (RFC 7493 §2.1)`, what, escape)
}

// stringEnd is the index of the quote that closes the string opening at
// data[open], and the first escape in it that is half a surrogate pair
// alone ("" if none). data is well-formed JSON.
func stringEnd(data []byte, open int) (end int, lone string) {
	for i := open + 1; i < len(data); i++ {
		switch data[i] {
		case '"':
			return i, lone
		case '\\':
			if data[i+1] != 'u' {
				i++
				continue
			}
			u := hex4(data[i+2 : i+6])
			switch {
			case u >= 0xD800 && u < 0xDC00: // high: a low must follow
				if i+11 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
					if v := hex4(data[i+8 : i+12]); v >= 0xDC00 && v < 0xE000 {
						i += 11
						continue
					}
				}
				fallthrough
			case u >= 0xDC00 && u < 0xE000: // a low with no high before it
				if lone == "" {
					lone = string(data[i+1 : i+6])
				}
			}
			i += 5
		}
	}
	return len(data), lone
}

// hex4 reads four hexadecimal digits, which json.Valid has checked.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// sameName reports whether two raw names (between their quotes) are the
// same name once their escapes are read.
func sameName(a, b []byte) bool {
	if bytes.IndexByte(a, '\\') < 0 && bytes.IndexByte(b, '\\') < 0 {
		return bytes.Equal(a, b)
	}
	return unquote(a) == unquote(b)
}

// unquote reads a raw JSON string's escapes.
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s); err != nil {
		return string(raw)
	}
	return s
}
