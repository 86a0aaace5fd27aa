package livestock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// flockParts is what the accessors of a SheepTag or GoatTag say.
type flockParts struct {
	Tag, Prefix, Mark, Number string
	Individual                int
	RFID                      string
}

func sheepOf(t SheepTag) flockParts {
	return flockParts{t.String(), t.Prefix(), t.FlockMark().String(), t.FlockNumber(), t.Individual(), t.RFID().String()}
}

func TestParseSheepTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want flockParts
	}{
		// domain-notes.md §1: the service's printed form and the rfid it fills in.
		{"UK0130181 00001", flockParts{"UK0130181 00001", "0", "130181", "0130181", 1, "0826013018100001"}},
		{"UK013018100001", flockParts{"UK0130181 00001", "0", "130181", "0130181", 1, "0826013018100001"}},
		// domain-notes.md §3: UK0123456 00001 = 0826012345600001.
		{"UK0123456 00001", flockParts{"UK0123456 00001", "0", "123456", "0123456", 1, "0826012345600001"}},
		{"UK1123456 99999", flockParts{"UK1123456 99999", "1", "123456", "1123456", 99999, "0826112345699999"}},
		{"UK1999999 99999", flockParts{"UK1999999 99999", "1", "999999", "1999999", 99999, "0826199999999999"}},
		{"UK0000000 00000", flockParts{"UK0000000 00000", "0", "000000", "0000000", 0, "0826000000000000"}},
		{"UK012345600025", flockParts{"UK0123456 00025", "0", "123456", "0123456", 25, "0826012345600025"}},
	}
	for _, tt := range tests {
		s, err := ParseSheepTag(tt.in)
		if err != nil {
			t.Errorf("ParseSheepTag(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, sheepOf(s)); diff != "" {
			t.Errorf("ParseSheepTag(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

var sheepNearMisses = []string{
	"", "UK", "UK0130181", "UK0130181 ", "UK 0130181 00001", "UK0130181  00001", "UK0130181 0001",
	"UK0130181 000001", "UK2130181 00001", "UK9130181 00001", "UK130181 00001", "UK13018100001",
	"uk0130181 00001", "Uk0130181 00001", "GB0130181 00001", "0130181 00001", " UK0130181 00001",
	"UK0130181 00001 ", "UK0130181\t00001", "UK0130181-00001", "UK01301810 0001", "UK013018 100001",
	"UK01301a1 00001", "UK0130181 0000a", "UK０130181 00001", "UK0130181\u00a000001",
	"UK 123456", "UK123450600001x", "UK0130181000011", "UK0130181 00001\n",
}

func TestParseSheepTagNearMisses(t *testing.T) {
	t.Parallel()
	for _, in := range sheepNearMisses {
		s, err := ParseSheepTag(in)
		if err == nil {
			t.Errorf("ParseSheepTag(%q) = %q, want an error", in, s)
			continue
		}
		checkErr(t, in, err, CodeBadFormat, "not a valid sheep tag number: expected UK, then 0 or 1, then a 6-digit flock mark")
	}
}

func TestSheepTagZeroAndText(t *testing.T) {
	t.Parallel()
	var s SheepTag
	if diff := cmp.Diff(flockParts{}, sheepOf(s)); diff != "" || !s.IsZero() || !s.RFID().IsZero() {
		t.Errorf("zero tag (-want +got):\n%s", diff)
	}
	if err := s.UnmarshalText([]byte("UK013018100001")); err != nil {
		t.Fatal(err)
	}
	if b, _ := s.MarshalText(); string(b) != "UK0130181 00001" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := s.UnmarshalText([]byte("UK2130181 00001")); err == nil || s.String() != "UK0130181 00001" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, s)
	}
}

func FuzzParseSheepTag(f *testing.F) {
	for _, s := range append([]string{"UK0130181 00001", "UK013018100001", "UK0123456 00001", "UK1123456 99999"}, sheepNearMisses...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := fuzzRoundTrip(t, s, ParseSheepTag)
		if !ok {
			return
		}
		r := v.RFID()
		if p, ok := r.Printed(); !ok || p != v.String() {
			t.Fatalf("%q: tag %q has RFID %q printed %q", s, v, r, p)
		}
		if g, err := ParseGoatTag(v.String()); err != nil || g.String() != v.String() {
			t.Fatalf("%q: sheep tag %q is not a goat tag: %q, %v", s, v, g, err)
		}
	})
}
