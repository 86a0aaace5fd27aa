package livestock

import "testing"

func TestParseMHS(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"1234", "0001", "9999", "0000"} {
		m, err := ParseMHS(in)
		if err != nil || m.String() != in || m.IsZero() {
			t.Errorf("ParseMHS(%q) = %q, %v", in, m, err)
		}
	}
}

var mhsNearMisses = []string{
	"", "123", "12345", "12a4", " 1234", "1234 ", "-123", "+123", "１234", "12.4", "0x12", "01/100/0264",
}

func TestParseMHSNearMisses(t *testing.T) {
	t.Parallel()
	for _, in := range mhsNearMisses {
		m, err := ParseMHS(in)
		if err == nil {
			t.Errorf("ParseMHS(%q) = %q, want an error", in, m)
			continue
		}
		checkErr(t, in, err, CodeBadFormat, "not a valid MHS: expected a 4-digit number")
	}
}

func TestMHSText(t *testing.T) {
	t.Parallel()
	var m MHS
	if !m.IsZero() {
		t.Error("zero MHS is not zero")
	}
	if err := m.UnmarshalText([]byte("4321")); err != nil {
		t.Fatal(err)
	}
	if b, _ := m.MarshalText(); string(b) != "4321" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := m.UnmarshalText([]byte("43210")); err == nil || m.String() != "4321" {
		t.Errorf("UnmarshalText(43210) = %v, left %q", err, m)
	}
}

func FuzzParseMHS(f *testing.F) {
	for _, s := range append([]string{"1234", "0001"}, mhsNearMisses...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if m, ok := fuzzRoundTrip(t, s, ParseMHS); ok && m.String() != s {
			t.Fatalf("%q: MHS %q is not its input", s, m)
		}
	})
}
