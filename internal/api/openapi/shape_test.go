package openapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestShapeProblem(t *testing.T) {
	t.Parallel()
	members := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":{"a":[1,{"b":2}]}`, i)
		}
		return "{" + b.String() + "}"
	}
	for _, tc := range []struct {
		name, body, pointer string
		ok                  bool
	}{
		{"small", `{"content":{"a":[1,2,{"b":[]}],"c":"x"}}`, "", true},
		{"64 members", `{"content":` + members(64) + `}`, "", true},
		{"65 members", `{"content":` + members(65) + `}`, "/content/", false},
		{"65 members in an array item", `{"content":{"list":[{},` + members(65) + `]}}`, "/content/list/1/", false},
		{"64 deep", strings.Repeat("[", 64) + strings.Repeat("]", 64), "", true},
		{"65 deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), "/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0", false},
		{"scalar", `3`, "", true},
		{"keys that look like values", `{"a":"b","c":"d"}`, "", true},
		{"63 members, brackets in strings", `{"content":{"s":"[[{{,,,"` + strings.Repeat(`,"x":1`, 62) + `}}`, "", true},
		{"63 deep", strings.Repeat("[", 63) + strings.Repeat("]", 63), "", true},
		{"NUL in a value", `{"animal":{"name":"a\u0000b"}}`, "/animal/name", false},
		{"NUL in an item", `{"content":{"processingFlags":["1","\u0000"]}}`, "/content/processingFlags/1", false},
		{"NUL in a member name", `{"content":{"a\u0000":1}}`, `/content/a\u0000`, false},
		{"an escaped backslash before u0000", `{"animal":{"name":"a\\u0000b"}}`, "", true},
		{"a line feed", `{"animal":{"name":"a\nb"}}`, "/animal/name", false},
		{"a tab, escaped as a code", `{"content":{"trackingId":"t\u0009"}}`, "/content/trackingId", false},
		{"DEL as itself", "{\"animal\":{\"name\":\"a\x7fb\"}}", "/animal/name", false},
		{"U+0085 as itself", "{\"animal\":{\"name\":\"a\u0085b\"}}", "/animal/name", false},
		{"a control character in a member name", `{"content":{"a\r":1}}`, `/content/a\u000d`, false},
		{"escaped slashes and text beyond ASCII", `{"content":{"userHolding":"01\/100\/0257","name":"£ Müller \u00e9"}}`, "", true},
	} {
		at, msg, _, ok := shapeProblem([]byte(tc.body))
		if ok != tc.ok || at != tc.pointer {
			t.Errorf("%s: shapeProblem = %q, %q, %v; want %q, %v", tc.name, at, msg, ok, tc.pointer, tc.ok)
		}
		if sat, _, _, sok := scanShape([]byte(tc.body)); sok != ok || sat != at {
			t.Errorf("%s: scanShape = %q, %v; shapeProblem %q, %v", tc.name, sat, sok, at, ok)
		}
	}
}

// FuzzShapeFastPath: counting brackets and commas never lets through a
// well-formed body that reading its tokens would refuse, nor refuses one.
func FuzzShapeFastPath(f *testing.F) {
	f.Add([]byte(`{"content":{"a":[1,2,{"b":[]}],"c":"x"}}`))
	f.Add([]byte(strings.Repeat("[", 63) + strings.Repeat("]", 63)))
	f.Add([]byte(`{"s":"[[{{,,,","t":{"u":[{},{}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		at, _, _, ok := shapeProblem(data)
		if sat, _, _, sok := scanShape(data); sok != ok || sat != at {
			t.Fatalf("shapeProblem = %q, %v; scanShape = %q, %v", at, ok, sat, sok)
		}
	})
}
