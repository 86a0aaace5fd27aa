package livestock

import (
	"errors"
	"strings"
	"testing"
)

// checkErr fails unless err is a KindInvalid *Error with exactly one field
// error, of the given code, whose message contains msg.
func checkErr(t *testing.T, in string, err error, code Code, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %v (%T), want *Error", in, err, err)
	}
	if e.Kind != KindInvalid || len(e.Fields) != 1 {
		t.Fatalf("%q: error %v, want KindInvalid with one field", in, err)
	}
	if f := e.Fields[0]; f.Code != code || !strings.Contains(f.Message, msg) {
		t.Errorf("%q: got %s %q, want %s containing %q", in, f.Code, f.Message, code, msg)
	}
}

// fuzzRoundTrip is the body of every FuzzParseX: parse never panics; a
// failure is a well-formed *Error; a success prints to text that parses
// back to the same value, and that text is a fixed point.
func fuzzRoundTrip[T interface {
	comparable
	String() string
}](t *testing.T, s string, parse func(string) (T, error)) (T, bool) {
	t.Helper()
	v, err := parse(s)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindInvalid || len(e.Fields) != 1 {
			t.Fatalf("%q: malformed error %#v", s, err)
		}
		if e.Fields[0].Code != CodeBadFormat && e.Fields[0].Code != CodeBadEnum && e.Fields[0].Code != CodeBadLength {
			t.Fatalf("%q: unexpected code %s", s, e.Fields[0].Code)
		}
		var zero T
		if v != zero {
			t.Fatalf("%q: error with a non-zero value %v", s, v)
		}
		return v, false
	}
	out := v.String()
	w, err := parse(out)
	if err != nil {
		t.Fatalf("%q parsed to %q, which does not parse: %v", s, out, err)
	}
	if w != v {
		t.Fatalf("%q parsed to %q, which parses to %q", s, out, w.String())
	}
	return v, true
}
