package livestock

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseTrackingID(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"a", "0", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
		"order 42", "vendor/2024/03/01#7", strings.Repeat("x", 36), strings.Repeat("é", 36),
		strings.Repeat("羊", 36), "Ĳsselmeer-ferme", "a  b", "🐑🐐",
	} {
		v, err := ParseTrackingID(in)
		if err != nil || v.String() != in || v.IsZero() {
			t.Errorf("ParseTrackingID(%q) = %q, %v", in, v, err)
		}
	}
}

var trackingIDNearMisses = []struct {
	in   string
	code Code
	msg  string
}{
	{"", CodeBadLength, "it must be 1 to 36 characters long, not 0"},
	{strings.Repeat("x", 37), CodeBadLength, "it must be 1 to 36 characters long, not 37"},
	{"3f2504e0-4f89-11d3-9a0c-0305e82c3301a", CodeBadLength, "it must be 1 to 36 characters long, not 37"},
	{strings.Repeat("é", 37), CodeBadLength, "it must be 1 to 36 characters long, not 37"},
	{strings.Repeat("x", 1000), CodeBadLength, "it must be 1 to 36 characters long, not 1000"},
	{"\xff", CodeBadFormat, "the text is not valid UTF-8"},
	{"abc\xc3", CodeBadFormat, "the text is not valid UTF-8"},
	{"\xed\xa0\x80", CodeBadFormat, "the text is not valid UTF-8"}, // a surrogate
	{" abc", CodeBadFormat, "only printable characters are allowed"},
	{"abc ", CodeBadFormat, "only printable characters are allowed"},
	{" ", CodeBadFormat, "only printable characters are allowed"},
	{"\u00a0abc", CodeBadFormat, "only printable characters are allowed"},
	{"abc\u3000", CodeBadFormat, "only printable characters are allowed"},
	{"a\tb", CodeBadFormat, "only printable characters are allowed"},
	{"a\nb", CodeBadFormat, "only printable characters are allowed"},
	{"a\x00b", CodeBadFormat, "only printable characters are allowed"},
	{"a\x7fb", CodeBadFormat, "only printable characters are allowed"},
	{"a\u0085b", CodeBadFormat, "only printable characters are allowed"},
	{"a\u200bb", CodeBadFormat, "only printable characters are allowed"}, // zero-width space
	{"a\u202eb", CodeBadFormat, "only printable characters are allowed"}, // right-to-left override
	{"a\ufeffb", CodeBadFormat, "only printable characters are allowed"},
	{"a\ue000b", CodeBadFormat, "only printable characters are allowed"}, // private use
}

func TestParseTrackingIDNearMisses(t *testing.T) {
	t.Parallel()
	for _, tt := range trackingIDNearMisses {
		v, err := ParseTrackingID(tt.in)
		if err == nil {
			t.Errorf("ParseTrackingID(%q) = %q, want an error", tt.in, v)
			continue
		}
		checkErr(t, tt.in, err, tt.code, "not a valid trackingId: "+tt.msg)
	}
}

func TestTrackingIDText(t *testing.T) {
	t.Parallel()
	var v TrackingID
	if !v.IsZero() {
		t.Error("zero TrackingID is not zero")
	}
	if err := v.UnmarshalText([]byte("abc-123")); err != nil {
		t.Fatal(err)
	}
	if b, _ := v.MarshalText(); string(b) != "abc-123" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := v.UnmarshalText([]byte(strings.Repeat("x", 37))); err == nil || v.String() != "abc-123" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, v)
	}
}

func FuzzParseTrackingID(f *testing.F) {
	for _, s := range []string{"a", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", strings.Repeat("羊", 36), "order 42"} {
		f.Add(s)
	}
	for _, tt := range trackingIDNearMisses {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := fuzzRoundTrip(t, s, ParseTrackingID)
		if !ok {
			return
		}
		if n := utf8.RuneCountInString(v.String()); v.String() != s || n < 1 || n > TrackingIDMaxLen {
			t.Fatalf("%q: tracking id %q of %d characters", s, v, n)
		}
	})
}
