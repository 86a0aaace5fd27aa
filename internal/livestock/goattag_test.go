package livestock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func goatOf(t GoatTag) flockParts {
	return flockParts{t.String(), t.Prefix(), t.FlockMark().String(), t.FlockNumber(), t.Individual(), t.RFID().String()}
}

func TestParseGoatTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want flockParts
	}{
		// The live sandbox's 7-digit form.
		{"UK0130183 00001", flockParts{"UK0130183 00001", "0", "130183", "0130183", 1, "0826013018300001"}},
		{"UK013018300001", flockParts{"UK0130183 00001", "0", "130183", "0130183", 1, "0826013018300001"}},
		{"UK1130183 00025", flockParts{"UK1130183 00025", "1", "130183", "1130183", 25, "0826113018300025"}},
		// The interface document's 6-digit form takes the prefix 0.
		{"UK130183 00001", flockParts{"UK0130183 00001", "0", "130183", "0130183", 1, "0826013018300001"}},
		{"UK13018300001", flockParts{"UK0130183 00001", "0", "130183", "0130183", 1, "0826013018300001"}},
		{"UK123456 00001", flockParts{"UK0123456 00001", "0", "123456", "0123456", 1, "0826012345600001"}},
		{"UK999999 99999", flockParts{"UK0999999 99999", "0", "999999", "0999999", 99999, "0826099999999999"}},
	}
	for _, tt := range tests {
		g, err := ParseGoatTag(tt.in)
		if err != nil {
			t.Errorf("ParseGoatTag(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, goatOf(g)); diff != "" {
			t.Errorf("ParseGoatTag(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	a, _ := ParseGoatTag("UK130183 00001")
	b, _ := ParseGoatTag("UK0130183 00001")
	if a != b {
		t.Errorf("6-digit and 7-digit forms differ: %q, %q", a, b)
	}
}

var goatNearMisses = []string{
	"", "UK", "UK130183", "UK13018 00001", "UK2130183 00001", "UK9130183 00001", "UK213018300001",
	"UK1301830001", "UK130183 0001", "UK130183 000001", "UK 130183 00001", "UK130183  00001",
	"uk130183 00001", "GB130183 00001", "130183 00001", " UK130183 00001", "UK130183 00001 ",
	"UK130183-00001", "UK13018a 00001", "UK130183 0000a", "UK１30183 00001", "UK21301830000100",
	"UK 123456", "UK0130183\t00001", "Goat UK130183 00001",
}

func TestParseGoatTagNearMisses(t *testing.T) {
	t.Parallel()
	for _, in := range goatNearMisses {
		g, err := ParseGoatTag(in)
		if err == nil {
			t.Errorf("ParseGoatTag(%q) = %q, want an error", in, g)
			continue
		}
		checkErr(t, in, err, CodeBadFormat, "not a valid goat tag number: expected UK, then a 6-digit herd mark")
	}
}

func TestGoatTagZeroAndText(t *testing.T) {
	t.Parallel()
	var g GoatTag
	if diff := cmp.Diff(flockParts{}, goatOf(g)); diff != "" || !g.IsZero() {
		t.Errorf("zero tag (-want +got):\n%s", diff)
	}
	if err := g.UnmarshalText([]byte("UK130183 00001")); err != nil {
		t.Fatal(err)
	}
	if b, _ := g.MarshalText(); string(b) != "UK0130183 00001" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := g.UnmarshalText([]byte("UK2130183 00001")); err == nil || g.String() != "UK0130183 00001" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, g)
	}
}

func FuzzParseGoatTag(f *testing.F) {
	for _, s := range append([]string{"UK0130183 00001", "UK130183 00001", "UK13018300001", "UK013018300001"}, goatNearMisses...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := fuzzRoundTrip(t, s, ParseGoatTag)
		if !ok {
			return
		}
		r := v.RFID()
		if p, ok := r.Printed(); !ok || p != v.String() {
			t.Fatalf("%q: tag %q has RFID %q printed %q", s, v, r, p)
		}
		if q, err := ParseRFID(s); err != nil || q != r {
			t.Fatalf("%q: ParseRFID gives %q, %v; the tag's RFID is %q", s, q, err, r)
		}
	})
}
