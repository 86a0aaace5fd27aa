package livestock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCPH(t *testing.T) {
	t.Parallel()
	type result struct {
		CPH, County string
		Scottish    bool
	}
	tests := []struct {
		in   string
		want result
	}{
		{"27/811/2976", result{"27/811/2976", "27", false}}, // domain notes, registration site
		{"01/100/0264", result{"01/100/0264", "01", false}}, // live sandbox holdings
		{"01/100/0253", result{"01/100/0253", "01", false}},
		{"01/100/0266", result{"01/100/0266", "01", false}},
		{"01%2f100%2f0264", result{"01/100/0264", "01", false}},
		{"01%2F100%2F0264", result{"01/100/0264", "01", false}},
		{"01%2f100/0264", result{"01/100/0264", "01", false}},
		{"011000264", result{"01/100/0264", "01", false}},
		{"66/123/4567", result{"66/123/4567", "66", true}},
		{"98/001/0001", result{"98/001/0001", "98", true}},
		{"65/001/0001", result{"65/001/0001", "65", false}},
		{"99/001/0001", result{"99/001/0001", "99", false}},
		{"00/000/0000", result{"00/000/0000", "00", false}},
	}
	for _, tt := range tests {
		c, err := ParseCPH(tt.in)
		if err != nil {
			t.Errorf("ParseCPH(%q): %v", tt.in, err)
			continue
		}
		got := result{c.String(), c.County(), c.Scottish()}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseCPH(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

var cphNearMisses = []string{
	"", "27/811/297", "27/811/29766", "2/811/2976", "27/81/2976", "27-811-2976", "27 811 2976",
	"27/811/297a", "2781129", "2781129766", "27811297a", "27%2f811%2f297", "27%2g811%2g2976",
	" 27/811/2976", "27/811/2976 ", "27//811/2976", "27/811//2976", "２7/811/2976", "27/８11/2976",
	"27/811/-976", "+27811297", "27/811/2976\n",
}

func TestParseCPHNearMisses(t *testing.T) {
	t.Parallel()
	for _, in := range cphNearMisses {
		c, err := ParseCPH(in)
		if err == nil {
			t.Errorf("ParseCPH(%q) = %q, want an error", in, c)
			continue
		}
		checkErr(t, in, err, CodeBadFormat, "not a valid CPH: expected NN/NNN/NNNN")
	}
}

func TestCPHZero(t *testing.T) {
	t.Parallel()
	var c CPH
	if !c.IsZero() || c.County() != "" || c.Scottish() || c.String() != "" {
		t.Errorf("zero CPH = %q %q %v", c, c.County(), c.Scottish())
	}
}

func TestCPHText(t *testing.T) {
	t.Parallel()
	var c CPH
	if err := c.UnmarshalText([]byte("01%2f100%2f0264")); err != nil {
		t.Fatal(err)
	}
	b, _ := c.MarshalText()
	if string(b) != "01/100/0264" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := c.UnmarshalText([]byte("nope")); err == nil || c.String() != "01/100/0264" {
		t.Errorf("UnmarshalText(nope) = %v, left %q", err, c)
	}
}

func FuzzParseCPH(f *testing.F) {
	for _, s := range []string{"27/811/2976", "01/100/0264", "01%2f100%2f0264", "01%2F100%2F0264", "011000264"} {
		f.Add(s)
	}
	for _, s := range cphNearMisses {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, ok := fuzzRoundTrip(t, s, ParseCPH); ok {
			if len(c.String()) != 11 || c.Scottish() != (c.County() >= "66" && c.County() <= "98") {
				t.Fatalf("%q: bad CPH %q", s, c)
			}
		}
	})
}

// A store parses the CPHs of every row it reads, all in the normal form.
func TestParseCPHNormalFormAllocates(t *testing.T) {
	s := "27/811/2976"
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseCPH(s) }); n != 0 {
		t.Errorf("ParseCPH(%q) allocates %v times; want 0", s, n)
	}
}
