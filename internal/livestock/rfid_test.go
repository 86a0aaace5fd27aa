package livestock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type rfidParts struct {
	Decimal, Hex string
	Country      int
	NationalID   uint64
	Printed      string
	UK           bool
}

func rfidOf(r RFID) rfidParts {
	p, ok := r.Printed()
	return rfidParts{r.Decimal(), r.Hex(), r.Country(), r.NationalID(), p, ok}
}

func TestParseRFID(t *testing.T) {
	t.Parallel()
	// domain-notes.md §3: the hex, decimal and printed forms of one tag.
	uk0123456 := rfidParts{"0826012345600001", "8200ce82dfdae801", 826, 12345600001, "UK0123456 00001", true}
	// domain-notes.md §1: the printed form and the rfid the service fills in.
	uk0130181 := rfidParts{"0826013018100001", "8200ce8307f07121", 826, 13018100001, "UK0130181 00001", true}
	tests := []struct {
		in   string
		want rfidParts
	}{
		{"8200ce82dfdae801", uk0123456},
		{"8200CE82DFDAE801", uk0123456},
		{"0000ce82dfdae801", uk0123456}, // flags are not identity
		{"ffffce82dfdae801", uk0123456},
		{"8000ce82dfdae801", uk0123456},
		{"0826012345600001", uk0123456},
		{"826012345600001", uk0123456},
		{"UK0123456 00001", uk0123456},
		{"UK012345600001", uk0123456},
		{"UK123456 00001", uk0123456}, // the goat form, prefix 0
		{"UK12345600001", uk0123456},
		{"UK0130181 00001", uk0130181},
		{"0826013018100001", uk0130181},
		{"8200ce8307f07121", uk0130181},
		{"UK1999999 99999", rfidParts{"0826199999999999", "8200ceae90edcfff", 826, 199999999999, "UK1999999 99999", true}},
		// A UK national id that is no sheep or goat tag has no printed form.
		{"0826274877906943", rfidParts{"0826274877906943", "8200cebfffffffff", 826, 274877906943, "", false}},
		{"0826200000000000", rfidParts{"0826200000000000", "8200ceae90edd000", 826, 200000000000, "", false}},
		// Other countries.
		{"0250123456789012", rfidParts{"0250123456789012", "82003e9cbe991a14", 250, 123456789012, "", false}},
		{"250123456789012", rfidParts{"0250123456789012", "82003e9cbe991a14", 250, 123456789012, "", false}},
		{"82003e9cbe991a14", rfidParts{"0250123456789012", "82003e9cbe991a14", 250, 123456789012, "", false}},
		{"8200f9ffffffffff", rfidParts{"0999274877906943", "8200f9ffffffffff", 999, 274877906943, "", false}},
		{"0000000000000000", rfidParts{"0000000000000000", "8200000000000000", 0, 0, "", false}},
		{"000000000000000", rfidParts{"0000000000000000", "8200000000000000", 0, 0, "", false}},
		{"8200000000000000", rfidParts{"0000000000000000", "8200000000000000", 0, 0, "", false}},
	}
	for _, tt := range tests {
		r, err := ParseRFID(tt.in)
		if err != nil {
			t.Errorf("ParseRFID(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, rfidOf(r)); diff != "" {
			t.Errorf("ParseRFID(%q) (-want +got):\n%s", tt.in, diff)
		}
		if r.String() != tt.want.Decimal {
			t.Errorf("ParseRFID(%q).String() = %q, want %q", tt.in, r, tt.want.Decimal)
		}
	}
	a, _ := ParseRFID("8200ce82dfdae801")
	b, _ := ParseRFID("UK0123456 00001")
	c, _ := ParseRFID("0826012345600001")
	if a != b || b != c {
		t.Errorf("the three forms of one RFID differ: %q %q %q", a, b, c)
	}
}

var rfidNearMisses = []struct{ in, msg string }{
	{"0826274877906944", "the national id 274877906944 does not fit 38 bits"},
	{"0826999999999999", "the national id 999999999999 does not fit 38 bits"},
	{"826999999999999", "the national id 999999999999 does not fit 38 bits"},
	{"8200fa0000000005", "the country code 1000 is above 999"},
	{"8200ffffffffffff", "the country code 1023 is above 999"},
	{"", "expected 16 hexadecimal digits"},
	{"UK", "expected 16 hexadecimal digits"},
	{"8200ce82dfdae80", "expected 16"},
	{"8200ce82dfdae8011", "expected 16"},
	{"0x00ce82dfdae801", "expected 16"},
	{"+200ce82dfdae801", "expected 16"},
	{"-200ce82dfdae801", "expected 16"},
	{"8200_e82dfdae801", "expected 16"},
	{"8200ce82dfdae80g", "expected 16"},
	{"8200ce82 dfdae801", "expected 16"},
	{" 8200ce82dfdae801", "expected 16"},
	{"08260123456000010", "expected 16"},
	{"82601234560000", "expected 16"},
	{"826 012345600001", "expected 16"},
	{"0826 012345600001", "expected 16"},
	{"0826-012345600001", "expected 16"},
	{"０826012345600001", "expected 16"},
	{"uk0123456 00001", "expected 16"},
	{"UK0123456 0001", "expected 16"},
	{"UK0123456  00001", "expected 16"},
	{"UK 0123456 00001", "expected 16"},
	{"UK2123456 00001", "expected 16"},
	{"UK2748779 06943", "expected 16"},
	{"UK123450600001x", "expected 16"},
	{"UK0123456", "expected 16"},
	{"UK 123456", "expected 16"},
}

func TestParseRFIDNearMisses(t *testing.T) {
	t.Parallel()
	for _, tt := range rfidNearMisses {
		r, err := ParseRFID(tt.in)
		if err == nil {
			t.Errorf("ParseRFID(%q) = %q, want an error", tt.in, r)
			continue
		}
		checkErr(t, tt.in, err, CodeBadFormat, "not a valid RFID: "+tt.msg)
	}
}

func TestRFIDZeroAndText(t *testing.T) {
	t.Parallel()
	var r RFID
	if diff := cmp.Diff(rfidParts{}, rfidOf(r)); diff != "" || !r.IsZero() {
		t.Errorf("zero RFID (-want +got):\n%s", diff)
	}
	if err := r.UnmarshalText([]byte("8200ce82dfdae801")); err != nil {
		t.Fatal(err)
	}
	if b, _ := r.MarshalText(); string(b) != "0826012345600001" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := r.UnmarshalText([]byte("0826274877906944")); err == nil || r.String() != "0826012345600001" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, r)
	}
}

func FuzzParseRFID(f *testing.F) {
	for _, s := range []string{
		"8200ce82dfdae801", "8200CE82DFDAE801", "0826012345600001", "826012345600001",
		"UK0123456 00001", "UK012345600001", "UK123456 00001", "0826013018100001", "0250123456789012",
	} {
		f.Add(s)
	}
	for _, tt := range rfidNearMisses {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := fuzzRoundTrip(t, s, ParseRFID)
		if !ok {
			return
		}
		if r.Country() > 999 || r.NationalID() >= 1<<38 {
			t.Fatalf("%q: RFID %q out of range", s, r)
		}
		if h, err := ParseRFID(r.Hex()); err != nil || h != r {
			t.Fatalf("%q: hex %q reads back as %q, %v", s, r.Hex(), h, err)
		}
		if p, ok := r.Printed(); ok {
			if q, err := ParseRFID(p); err != nil || q != r {
				t.Fatalf("%q: printed %q reads back as %q, %v", s, p, q, err)
			}
			if g, err := ParseSheepTag(p); err != nil || g.RFID() != r {
				t.Fatalf("%q: printed %q is not a sheep tag of the same RFID: %q, %v", s, p, g, err)
			}
		}
	})
}
