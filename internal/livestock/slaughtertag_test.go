package livestock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSlaughterTag(t *testing.T) {
	t.Parallel()
	type parts struct{ Tag, Mark, Batch string }
	tests := []struct {
		in   string
		want parts
	}{
		{"UK 123456", parts{"UK123456", "123456", "UK123456"}}, // domain-notes.md §3
		{"UK123456", parts{"UK123456", "123456", "UK123456"}},
		{"UK0123456", parts{"UK123456", "123456", "UK123456"}},
		{"UK 0123456", parts{"UK123456", "123456", "UK123456"}},
		{"UK1123456", parts{"UK123456", "123456", "UK123456"}},
		{"UK000000", parts{"UK000000", "000000", "UK000000"}},
		{"UK 999999", parts{"UK999999", "999999", "UK999999"}},
	}
	for _, tt := range tests {
		s, err := ParseSlaughterTag(tt.in)
		if err != nil {
			t.Errorf("ParseSlaughterTag(%q): %v", tt.in, err)
			continue
		}
		got := parts{s.String(), s.FlockMark().String(), s.BatchNumber().String()}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseSlaughterTag(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

var slaughterNearMisses = []string{
	"", "UK", "UK ", "UK12345", "UK 12345", "UK2123456", "UK9123456", "UK01234567", "UK  123456",
	"uk123456", "GB123456", "123456", " UK123456", "UK123456 ", "UK12345a", "UK-123456", "UK１23456",
	"UK0123456 00001", "UK 0 123456", "UK\t123456", "UK123456\x00",
}

func TestParseSlaughterTagNearMisses(t *testing.T) {
	t.Parallel()
	for _, in := range slaughterNearMisses {
		s, err := ParseSlaughterTag(in)
		if err == nil {
			t.Errorf("ParseSlaughterTag(%q) = %q, want an error", in, s)
			continue
		}
		checkErr(t, in, err, CodeBadFormat, "not a valid slaughter tag: expected UK, an optional space, then a 6-digit flock mark")
	}
}

func TestSlaughterTagZeroAndText(t *testing.T) {
	t.Parallel()
	var s SlaughterTag
	if !s.IsZero() || !s.FlockMark().IsZero() || !s.BatchNumber().IsZero() {
		t.Errorf("zero tag = %q", s)
	}
	if err := s.UnmarshalText([]byte("UK 0123456")); err != nil {
		t.Fatal(err)
	}
	if b, _ := s.MarshalText(); string(b) != "UK123456" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := s.UnmarshalText([]byte("UK 12345")); err == nil || s.String() != "UK123456" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, s)
	}
}

func FuzzParseSlaughterTag(f *testing.F) {
	for _, s := range append([]string{"UK 123456", "UK123456", "UK0123456", "UK1123456"}, slaughterNearMisses...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := fuzzRoundTrip(t, s, ParseSlaughterTag)
		if !ok {
			return
		}
		if b, err := ParseBatchNumber(v.String()); err != nil || b != v.BatchNumber() {
			t.Fatalf("%q: slaughter tag %q is not the batch number %q: %v", s, v, b, err)
		}
	})
}
