package openapi

import (
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
	} {
		at, msg, ok := shapeProblem([]byte(tc.body))
		if ok != tc.ok || at != tc.pointer {
			t.Errorf("%s: shapeProblem = %q, %q, %v; want %q, %v", tc.name, at, msg, ok, tc.pointer, tc.ok)
		}
	}
}
