package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

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

// nulEscape is how a JSON text writes U+0000, which no string of a body
// may hold: PostgreSQL's text cannot, and no field has a use for it. (It
// is also how a string holding a backslash followed by u0000 is written,
// so finding it only means reading the tokens.)
var nulEscape = []byte(`\u0000`)

// shapeProblem reports the first place where a well-formed JSON body
// breaks the bounds, or has a string holding U+0000, as a JSON pointer,
// a message and the code that names the rule; ok is true when it keeps
// them.
func shapeProblem(data []byte) (pointer, message string, code livestock.Code, ok bool) {
	// Nesting needs a bracket a level, and an object's members are one
	// more than the commas between them: a body with fewer of each than
	// the bounds keeps them, whatever its strings hold. Most bodies are
	// such, and counting bytes costs a tenth of reading tokens.
	if bytes.Count(data, []byte{'{'})+bytes.Count(data, []byte{'['}) < maxDepth &&
		bytes.Count(data, []byte{','}) < maxMembers-1 && !bytes.Contains(data, nulEscape) {
		return "", "", "", true
	}
	return scanShape(data)
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
				if strings.IndexByte(t, 0) >= 0 {
					f.key = strings.ReplaceAll(t, "\x00", `\u0000`)
					return path(), "a member name holds the character U+0000, which no text may hold", livestock.CodeBadFormat, false
				}
				expectKey = false
				continue
			}
			if strings.IndexByte(t, 0) >= 0 {
				return path(), "holds the character U+0000, which no text may hold", livestock.CodeBadFormat, false
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
