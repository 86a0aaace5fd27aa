package livestock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type cattleParts struct {
	Tag, Herd     string
	Check, Animal int
}

func cattleOf(c CattleTag) cattleParts {
	return cattleParts{c.String(), c.HerdMark().String(), c.CheckDigit(), c.AnimalNumber()}
}

func TestParseCattleTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want cattleParts
	}{
		// The worked example of domain-notes.md §3.
		{"UK123450600001", cattleParts{"UK123450600001", "123450", 6, 1}},
		{"UK 123450 6 00001", cattleParts{"UK123450600001", "123450", 6, 1}},
		{"UK 123450 600001", cattleParts{"UK123450600001", "123450", 6, 1}},
		{"UK123450 600001", cattleParts{"UK123450600001", "123450", 6, 1}},
		{"UK1234506 00001", cattleParts{"UK123450600001", "123450", 6, 1}},
		{"UK 123450600001", cattleParts{"UK123450600001", "123450", 6, 1}},
		// N = 0: check digit 1.
		{"UK000000100000", cattleParts{"UK000000100000", "000000", 1, 0}},
		// N = 99999999999 = 7 × 14285714285 + 4: check digit 5.
		{"UK999999599999", cattleParts{"UK999999599999", "999999", 5, 99999}},
		// N = 7: N mod 7 = 0, check digit 1; N = 6: check digit 7.
		{"UK000000100007", cattleParts{"UK000000100007", "000000", 1, 7}},
		{"UK000000700006", cattleParts{"UK000000700006", "000000", 7, 6}},
		{"UK123450600001", cattleParts{"UK123450600001", "123450", 6, 1}},
		{"UK123450 7 00002", cattleParts{"UK123450700002", "123450", 7, 2}},
	}
	for _, tt := range tests {
		c, err := ParseCattleTag(tt.in)
		if err != nil {
			t.Errorf("ParseCattleTag(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, cattleOf(c)); diff != "" {
			t.Errorf("ParseCattleTag(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

var cattleNearMisses = []struct{ in, msg string }{
	{"UK123450700001", "check digit should be 6, not 7"}, // domain-notes.md §3
	{"UK 123450 0 00001", "check digit should be 6, not 0"},
	{"UK123450900001", "check digit should be 6, not 9"},
	{"UK123450600002", "check digit should be 7, not 6"},
	{"UK999999999999", "check digit should be 5, not 9"},
	{"", "expected UK, a 6-digit herd mark"},
	{"UK", "expected UK"},
	{"123450600001", "expected UK"},
	{"uk123450600001", "expected UK"},
	{"GB123450600001", "expected UK"},
	{"UK12345060000", "expected UK"},
	{"UK1234506000011", "expected UK"},
	{"UK  123450600001", "expected UK"},
	{"UK 123450  600001", "expected UK"},
	{"UK123450600001 ", "expected UK"},
	{" UK123450600001", "expected UK"},
	{"UK12345A600001", "expected UK"},
	{"UK123450-6-00001", "expected UK"},
	{"UK12345 0600001", "expected UK"},
	{"UK123450\t600001", "expected UK"},
	{"UK0130181 00001", "check digit should be 6, not 1"}, // a sheep tag has the same shape
	{"UK 123456", "expected UK"},                          // a slaughter tag
	{"UK１23450600001", "expected UK"},
	{"UK 123450 6 0000", "expected UK"},
}

func TestParseCattleTagNearMisses(t *testing.T) {
	t.Parallel()
	for _, tt := range cattleNearMisses {
		c, err := ParseCattleTag(tt.in)
		if err == nil {
			t.Errorf("ParseCattleTag(%q) = %q, want an error", tt.in, c)
			continue
		}
		checkErr(t, tt.in, err, CodeBadFormat, "not a valid cattle ear tag: "+tt.msg)
	}
}

func TestNewCattleTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		herd   string
		animal int
		want   string
	}{
		{"123450", 1, "UK123450600001"},
		{"123450", 2, "UK123450700002"},
		{"000000", 0, "UK000000100000"},
		{"999999", 99999, "UK999999599999"},
	}
	for _, tt := range tests {
		c, err := NewCattleTag(tt.herd, tt.animal)
		if err != nil || c.String() != tt.want {
			t.Errorf("NewCattleTag(%q, %d) = %q, %v; want %q", tt.herd, tt.animal, c, err, tt.want)
		}
	}
	bad := []struct {
		herd   string
		animal int
		what   string
	}{
		{"12345", 1, "herd mark"}, {"1234567", 1, "herd mark"}, {"12345a", 1, "herd mark"}, {"", 1, "herd mark"},
		{"123450", -1, "animal number"}, {"123450", 100000, "animal number"},
	}
	for _, tt := range bad {
		c, err := NewCattleTag(tt.herd, tt.animal)
		if err == nil {
			t.Errorf("NewCattleTag(%q, %d) = %q, want an error", tt.herd, tt.animal, c)
			continue
		}
		checkErr(t, tt.herd, err, CodeBadFormat, "not a valid "+tt.what)
	}
	// Every tag NewCattleTag makes parses back to itself.
	for animal := 0; animal < 100; animal++ {
		c, err := NewCattleTag("543210", animal)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := ParseCattleTag(c.String()); err != nil || p != c {
			t.Errorf("ParseCattleTag(%q) = %q, %v", c, p, err)
		}
	}
}

func TestCattleTagZeroAndText(t *testing.T) {
	t.Parallel()
	var c CattleTag
	if diff := cmp.Diff(cattleParts{}, cattleOf(c)); diff != "" || !c.IsZero() {
		t.Errorf("zero tag (-want +got):\n%s", diff)
	}
	if err := c.UnmarshalText([]byte("UK 123450 6 00001")); err != nil {
		t.Fatal(err)
	}
	if b, _ := c.MarshalText(); string(b) != "UK123450600001" {
		t.Errorf("MarshalText = %q", b)
	}
	if err := c.UnmarshalText([]byte("UK123450700001")); err == nil || c.String() != "UK123450600001" {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, c)
	}
}

func FuzzParseCattleTag(f *testing.F) {
	for _, tt := range cattleSeeds() {
		f.Add(tt)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := fuzzRoundTrip(t, s, ParseCattleTag)
		if !ok {
			return
		}
		if c.CheckDigit() != cattleCheckDigit(atoi(c.HerdMark().String()), c.AnimalNumber()) {
			t.Fatalf("%q: tag %q with a wrong check digit", s, c)
		}
		if n, err := NewCattleTag(c.HerdMark().String(), c.AnimalNumber()); err != nil || n != c {
			t.Fatalf("%q: NewCattleTag gives %q, %v, want %q", s, n, err, c)
		}
	})
}

// cattleSeeds lists the published examples and near misses.
func cattleSeeds() []string {
	s := []string{"UK123450600001", "UK 123450 6 00001", "UK123450 600001", "UK000000100000"}
	for _, tt := range cattleNearMisses {
		s = append(s, tt.in)
	}
	return s
}

func TestMustCattleTag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		herd   string
		animal int
		want   string
	}{
		{"123450", 1, "UK123450600001"}, // the worked example of domain-notes.md §3
		{"123450", 2, "UK123450700002"},
		{"442501", 1, "UK442501300001"}, // the sandbox's cow, dam of every test calf
		{"000000", 7, "UK000000100007"}, // N mod 7 = 0
		{"000000", 6, "UK000000700006"}, // the largest check digit
	}
	for _, tt := range tests {
		if got := MustCattleTag(tt.herd, tt.animal).String(); got != tt.want {
			t.Errorf("MustCattleTag(%q, %d) = %q, want %q", tt.herd, tt.animal, got, tt.want)
		}
	}
	for _, bad := range []struct {
		herd   string
		animal int
	}{{"12345", 1}, {"123450", 100000}, {"123450", -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("MustCattleTag(%q, %d) did not panic", bad.herd, bad.animal)
				}
			}()
			MustCattleTag(bad.herd, bad.animal)
		}()
	}
}
