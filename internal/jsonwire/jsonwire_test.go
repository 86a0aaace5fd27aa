package jsonwire

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestWholeNumbers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"year":2026.0}`, `{"year":2026}`},
		{`{"year":2.026e3,"n":[1.50,-0.0,3E0,1e-0]}`, `{"year":2026,"n":[1.50,0,3,1]}`},
		{`{"s":"2026.0 \"1.0\"","n":1.0}`, `{"s":"2026.0 \"1.0\"","n":1}`},
		{`{"big":12345678901234567890.000}`, `{"big":12345678901234567890}`},
		{`{"n":1e999999999,"m":2.5e-1,"k":7}`, `{"n":1e999999999,"m":2.5e-1,"k":7}`},
		{`[0.1e1, 10e-1, 100e-3]`, `[1, 1, 100e-3]`},
	} {
		got, changed := WholeNumbers([]byte(tc.in))
		if string(got) != tc.want || changed != (tc.in != tc.want) {
			t.Errorf("WholeNumbers(%s) = %s, %v; want %s", tc.in, got, changed, tc.want)
		}
	}
}

func TestDecode(t *testing.T) {
	type body struct {
		Year  int      `json:"year"`
		Ratio float64  `json:"ratio"`
		IDs   []*int64 `json:"ids"`
	}
	var b body
	if err := Decode([]byte(`{"year":2.026e3,"ratio":0.5,"ids":[7.0]}`), &b); err != nil || b.Year != 2026 || b.Ratio != 0.5 || *b.IDs[0] != 7 {
		t.Errorf("Decode = %v, %+v; want 2026, 0.5, [7]", err, b)
	}
	// What is not a whole number, or not a number, is refused as
	// encoding/json refuses it, naming the value as the body wrote it.
	for in, want := range map[string]string{`{"year":2026.5}`: "number 2026.5", `{"year":1e40}`: "number 1e40", `{"year":"2026"}`: "string"} {
		var te *json.UnmarshalTypeError
		if err := Decode([]byte(in), new(body)); !errors.As(err, &te) || te.Value != want || te.Field != "year" {
			t.Errorf("Decode(%s) = %v; want a type error at year, value %q", in, err, want)
		}
	}
	if err := Decode([]byte(`{"year":2026.0,"other":1}`), new(body)); err == nil || !strings.Contains(err.Error(), `unknown field "other"`) {
		t.Errorf("Decode with an unknown member = %v, want it refused", err)
	}
}

func FuzzWholeNumbers(f *testing.F) {
	for _, s := range []string{`{"year":2026.0}`, `[1e3,"a\"1.0",-0.0]`, `1.5`, `{"a":1e30}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		got, changed := WholeNumbers(data)
		if !json.Valid(got) {
			t.Fatalf("WholeNumbers(%s) = %s, not JSON", data, got)
		}
		var a, b any
		_ = json.Unmarshal(data, &a)
		_ = json.Unmarshal(got, &b)
		if !reflect.DeepEqual(a, b) { // == on numbers: -0 is 0
			t.Fatalf("WholeNumbers(%s) = %s: a value changed", data, got)
		}
		if !changed && string(got) != string(data) {
			t.Fatalf("WholeNumbers(%s) = %s, yet says it changed nothing", data, got)
		}
	})
}

// TestProblemNamesTheRule: an integer past what its field holds is said to
// be out of range, not to be no integer; other type errors name the type.
func TestProblemNamesTheRule(t *testing.T) {
	type body struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	for in, want := range map[string]string{
		`{"id":9223372036854775808}`: "/content/id is out of range: 9223372036854775808 is too large a number for it",
		`{"id":2.5}`:                 "/content/id must be an integer, not number 2.5",
		`{"name":3}`:                 "/content/name must be a string, not number",
	} {
		err := Decode([]byte(in), new(body))
		if source, msg := Problem(err, "/content"); msg != want || !strings.HasPrefix(want, source) {
			t.Errorf("Problem(%s) = %q, %q; want %q", in, source, msg, want)
		}
	}
}
