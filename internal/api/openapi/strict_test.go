package openapi

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStrictProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		at         []string // nil: ok
	}{
		{"ordinary", `{"content":{"animalCount":2,"animals":[{"id":"a"},{"id":"b"}]}}`, nil},
		{"a name again", `{"content":{"animalCount":1,"animalCount":500}}`, []string{"content", "animalCount"}},
		{"the same name in two objects", `{"a":{"x":1},"b":{"x":2},"x":3}`, nil},
		{"a name again after a nested object closed", `{"a":{"x":1,"y":{"x":2}},"b":2,"a":3}`, []string{"a"}},
		{"in an array item", `{"list":[{"x":1},{"x":1,"y":2,"x":3}]}`, []string{"list", "1", "x"}},
		{"spelt with an escape", `{"content":{"animalCount":1,"animal\u0043ount":2}}`, []string{"content", "animalCount"}},
		{"names differing only in case", `{"a":1,"A":2}`, nil},
		{"name with a slash", `{"a/b":1,"a\/b":2}`, []string{"a/b"}},
		{"a value like a name", `{"a":"a","b":"a"}`, nil},
		{"brackets and quotes in strings", `{"a":"{\"a\":1,\"a\":2}","b":"]}[{,"}`, nil},
		{"a lone high surrogate", `{"content":{"name":"x\ud800y"}}`, []string{"content", "name"}},
		{"a lone low surrogate", `{"a":["ok","\uDC00"]}`, []string{"a", "1"}},
		{"a high at the end", `{"a":"\ud83d"}`, []string{"a"}},
		{"two highs", `{"a":"\ud83d\ud83d"}`, []string{"a"}},
		{"a pair", `{"a":"\ud83d\udc04 cow"}`, nil},
		{"a pair in capitals", `{"a":"\uD83D\uDC04"}`, nil},
		{"an escaped backslash before u", `{"a":"\\ud800"}`, nil},
		{"a lone surrogate in a name", `{"\ud800":1}`, []string{"\ufffd"}},
		{"a bare string", `"\udfff"`, []string{}},
		{"a scalar", `3`, nil},
		{"empty object and array", `{"a":{},"b":[],"c":[[],{}]}`, nil},
	} {
		at, msg, ok := strictProblem([]byte(tc.body))
		if ok != (tc.at == nil) || !slices.Equal(at, tc.at) {
			t.Errorf("%s: strictProblem(%s) = %q, %q, %v; want %q", tc.name, tc.body, at, msg, ok, tc.at)
		}
		if !ok && msg == "" {
			t.Errorf("%s: no message", tc.name)
		}
	}
}

// surrogateEscape finds \u escapes of surrogates, for FuzzStrictNames to
// leave such bodies to TestStrictProblem.
var surrogateEscape = regexp.MustCompile(`\\u[dD][89a-fA-F]`)

// FuzzStrictNames: on well-formed UTF-8 JSON without surrogate escapes,
// strictProblem finds a repeated name exactly where reading the tokens
// with encoding/json does.
func FuzzStrictNames(f *testing.F) {
	f.Add([]byte(`{"content":{"animalCount":1,"animalCount":500}}`))
	f.Add([]byte(`{"a":{"x":1,"y":{"x":2}},"b":2,"a":3}`))
	f.Add([]byte(`{"list":[{"x":1},{"x":1,"y":2,"x":3}]}`))
	f.Add([]byte(`{"a":"{\"a\":1,\"a\":2}","b\u0041":[{},[]],"bA":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || !utf8.Valid(data) || surrogateEscape.Match(data) { // checkJSON refuses what is not UTF-8 first

			return
		}
		want := firstRepeatedName(t, data)
		at, _, ok := strictProblem(data)
		if ok != (want == nil) || !slices.Equal(at, want) {
			t.Fatalf("strictProblem(%s) = %q, %v; encoding/json finds %q", data, at, ok, want)
		}
	})
}

// firstRepeatedName is the pointer of the first name repeated in its
// object, read token by token with encoding/json; nil if none.
func firstRepeatedName(t *testing.T, data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		names map[string]bool // nil for an array
		token string
		index int
	}
	var stack []*frame
	expectKey := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			t.Fatalf("Token: %v", err)
		}
		if d, isDelim := tok.(json.Delim); isDelim {
			switch d {
			case '{':
				stack = append(stack, &frame{names: map[string]bool{}})
				expectKey = true
				continue
			case '[':
				stack = append(stack, &frame{token: "0"})
				continue
			}
			stack = stack[:len(stack)-1]
		} else if s, isString := tok.(string); isString && expectKey {
			f := stack[len(stack)-1]
			f.token, expectKey = s, false
			if f.names[s] {
				at := make([]string, len(stack))
				for i, g := range stack {
					at[i] = g.token
				}
				return at
			}
			f.names[s] = true
			continue
		}
		if len(stack) > 0 { // a value ended
			if f := stack[len(stack)-1]; f.names != nil {
				expectKey = true
			} else {
				f.index++
				f.token = strconv.Itoa(f.index)
			}
		}
	}
}

// The check allocates nothing for an ordinary body.
func TestStrictProblemAllocates(t *testing.T) {
	body := []byte(`{"content":{"animalCount":2,"movementDate":"2026-11-20","animals":[{"id":"UK0130181 00001"},{"id":"UK0130181 00002"}],"departure":{"holding":"01/100/0001"},"destination":{"holding":"01/100/0002"}}}`)
	if n := testing.AllocsPerRun(100, func() { strictProblem(body) }); n != 0 {
		t.Errorf("%v allocations a body, want 0", n)
	}
	if strings.Contains(string(body), `\`) {
		t.Fatal("the body was meant to have no escapes")
	}
}

func BenchmarkStrictProblem(b *testing.B) {
	body := []byte(`{"content":{"animalCount":2,"movementDate":"2026-11-20","animals":[{"id":"UK0130181 00001"},{"id":"UK0130181 00002"}],"departure":{"holding":"01/100/0001"},"destination":{"holding":"01/100/0002"}}}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		strictProblem(body)
	}
}
