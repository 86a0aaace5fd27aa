package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/drover-registry/drover/internal/livestock"
)

// Bounds on the shape of a JSON body, checked before the schema is.
// Every object in Drover's bodies has a few dozen members at most, and
// nests a handful of levels deep. kin-openapi's schema visitor takes time
// that grows much faster than linearly with the members of one object
// (measured: 5,000 unknown properties, 16 s; 25,000, six minutes), so a
// hostile body is refused on its shape before it reaches the visitor.
const (
	maxMembers = 64
	maxDepth   = 64
)

// shapeProblem reports the first place where a well-formed JSON body
// breaks the bounds, or has a string holding a control character, as a
// JSON pointer, a message and the code that names the rule; ok is true
// when it keeps them.
//
// No field of a body has a use for a control character (every text is a
// single line: names, addresses, references), and U+0000 cannot be
// stored at all: PostgreSQL's text cannot hold it.
func shapeProblem(data []byte) (pointer, message string, code livestock.Code, ok bool) {
	// Nesting needs a bracket a level, and an object's members are one
	// more than the commas between them: a body with fewer of each than
	// the bounds keeps them, whatever its strings hold. Most bodies are
	// such, and counting bytes costs a tenth of reading tokens.
	if bytes.Count(data, []byte{'{'})+bytes.Count(data, []byte{'['}) < maxDepth &&
		bytes.Count(data, []byte{','}) < maxMembers-1 && !mayHoldControl(data) {
		return "", "", "", true
	}
	return scanShape(data)
}

// mayHoldControl reports whether a well-formed JSON text may have a string
// holding a control character: JSON writes U+0000–U+001F only as escapes,
// after a backslash, and U+007F–U+009F as themselves (0x7F, or 0xC2 and a
// second byte).
func mayHoldControl(data []byte) bool {
	return bytes.IndexByte(data, '\\') >= 0 || bytes.IndexByte(data, 0x7f) >= 0 || bytes.IndexByte(data, 0xc2) >= 0
}

// controlIn returns the first control character of s.
func controlIn(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) {
			return r, true
		}
	}
	return 0, false
}

// escapeControls writes each control character of s as a JSON escape, so
// that a member name can stand in a pointer.
func escapeControls(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// scanShape is shapeProblem, reading every token.
func scanShape(data []byte) (pointer, message string, code livestock.Code, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object  bool
		members int
		key     string // the last member name read, for the pointer
		index   int
	}
	var stack []frame
	path := func() string {
		var b bytes.Buffer
		for _, f := range stack {
			b.WriteByte('/')
			if f.object {
				b.WriteString(f.key)
			} else {
				fmt.Fprint(&b, f.index)
			}
			if b.Len() > 200 { // a pointer of bounded length, whatever the keys
				b.Truncate(200)
				b.WriteString("…")
				break
			}
		}
		return b.String()
	}
	expectKey := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return "", "", "", true
		}
		if err != nil {
			return "", "", "", true // json.Valid has passed it; the schema check reports the rest
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= maxDepth {
					return path(), fmt.Sprintf("nested more than %d levels deep", maxDepth), livestock.CodeBadLength, false
				}
				stack = append(stack, frame{object: t == '{', index: -1})
				expectKey = t == '{'
				if t == '[' {
					stack[len(stack)-1].index = 0
				}
				continue
			default:
				stack = stack[:top]
			}
		case string:
			if expectKey {
				f := &stack[top]
				f.members++
				f.key = t
				if f.members > maxMembers {
					f.key = ""
					return path(), fmt.Sprintf("an object has more than %d members", maxMembers), livestock.CodeBadLength, false
				}
				if r, found := controlIn(t); found {
					f.key = escapeControls(t)
					return path(), fmt.Sprintf("a member name holds the control character %U, which no text may hold", r), livestock.CodeBadFormat, false
				}
				expectKey = false
				continue
			}
			if r, found := controlIn(t); found {
				return path(), fmt.Sprintf("holds the control character %U, which no text may hold", r), livestock.CodeBadFormat, false
			}
		}
		// A value ended: the next token in an object is a key, in an array
		// the next item.
		if top = len(stack) - 1; top >= 0 {
			if stack[top].object {
				expectKey = true
			} else {
				stack[top].index++
			}
		}
	}
}
