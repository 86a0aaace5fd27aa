package livestock

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseBatchNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		unknown  bool
	}{
		{"UK123456", "UK123456", false},
		{"UK000000", "UK000000", false},
		{"UK654321", "UK654321", false},
		{"unknown", "unknown", true},
		{"UNKNOWN", "unknown", true},
		{"Unknown", "unknown", true},
		{"uNkNoWn", "unknown", true},
	}
	for _, tt := range tests {
		n, err := ParseBatchNumber(tt.in)
		if err != nil {
			t.Errorf("ParseBatchNumber(%q): %v", tt.in, err)
			continue
		}
		if n.String() != tt.want || n.IsUnknown() != tt.unknown || n.IsZero() {
			t.Errorf("ParseBatchNumber(%q) = %q unknown %v, want %q unknown %v", tt.in, n, n.IsUnknown(), tt.want, tt.unknown)
		}
	}
}

var batchNumberNearMisses = []string{
	"", "UK", "UK12345", "UK1234567", "UK 123456", "uk123456", "Uk123456", "GB123456", "123456",
	"UK12345a", " UK123456", "UK123456 ", "unknow", "unknown ", " unknown", "un known", "none",
	"UK１23456", "UK-123456", "ＵＫ123456", "unknowN\x00", "UK0123456",
}

func TestParseBatchNumberNearMisses(t *testing.T) {
	t.Parallel()
	for _, in := range batchNumberNearMisses {
		n, err := ParseBatchNumber(in)
		if err == nil {
			t.Errorf("ParseBatchNumber(%q) = %q, want an error", in, n)
			continue
		}
		checkErr(t, in, err, CodeBadFormat, "not a valid batch number: expected UK followed by 6 digits (e.g. UK123456), or unknown")
	}
}

type batchParts struct {
	Batch, Number string
	Count         int
	Mark, Stock   string
}

func batchOf(b Batch) batchParts {
	return batchParts{b.String(), b.Number().String(), b.Count(), b.Mark(), b.StockType()}
}

func TestParseBatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want batchParts
	}{
		{"UK123456 x 10", batchParts{"UK123456 x 10", "UK123456", 10, "", ""}},
		{"UK123456 x 10 UK654321 - Ewes", batchParts{"UK123456 x 10 UK654321 - Ewes", "UK123456", 10, "UK654321", "Ewes"}},
		{"UK123456 X 10", batchParts{"UK123456 x 10", "UK123456", 10, "", ""}},
		{"UK123456 x 010", batchParts{"UK123456 x 10", "UK123456", 10, "", ""}},
		{"UK123456 x 1", batchParts{"UK123456 x 1", "UK123456", 1, "", ""}},
		{"UK123456 x 999999999", batchParts{"UK123456 x 999999999", "UK123456", 999999999, "", ""}},
		{"unknown x 3", batchParts{"unknown x 3", "unknown", 3, "", ""}},
		{"UNKNOWN x 3 red spot - Store lambs", batchParts{"unknown x 3 red spot - Store lambs", "unknown", 3, "red spot", "Store lambs"}},
		{"UK123456 x 5 a - b - c", batchParts{"UK123456 x 5 a - b - c", "UK123456", 5, "a", "b - c"}},
		{"UK123456 x 5 a x b - Ewes", batchParts{"UK123456 x 5 a x b - Ewes", "UK123456", 5, "a x b", "Ewes"}},
		{"UK123456 X 5 a x b - Ewes", batchParts{"UK123456 x 5 a x b - Ewes", "UK123456", 5, "a x b", "Ewes"}},
		{"UK123456 x 5 Marqué - Brebis", batchParts{"UK123456 x 5 Marqué - Brebis", "UK123456", 5, "Marqué", "Brebis"}},
	}
	for _, tt := range tests {
		b, err := ParseBatch(tt.in)
		if err != nil {
			t.Errorf("ParseBatch(%q): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, batchOf(b)); diff != "" {
			t.Errorf("ParseBatch(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

var batchNearMisses = []struct{ in, msg string }{
	{"UK123456 x 0", "the animal count must be at least 1"},
	{"UK123456 x 000", "the animal count must be at least 1"},
	{"UK12345 x 10", "not a valid batch number"},
	{"uk123456 x 10", "not a valid batch number"},
	{"none x 10", "not a valid batch number"},
	{"", "not a valid batch: expected <BatchNumber> x <AnimalCount>"},
	{"UK123456", "not a valid batch: expected"},
	{"UK123456 x", "not a valid batch: expected"},
	{"UK123456 x ", "not a valid batch: expected"},
	{"UK123456x10", "not a valid batch: expected"},
	{"UK123456 x10", "not a valid batch: expected"},
	{"UK123456  x 10", "not a valid batch: expected"},
	{"UK123456 x  10", "not a valid batch: expected"},
	{"UK123456 * 10", "not a valid batch: expected"},
	{"UK123456 x -1", "not a valid batch: expected"},
	{"UK123456 x +1", "not a valid batch: expected"},
	{"UK123456 x 1.5", "not a valid batch: expected"},
	{"UK123456 x ten", "not a valid batch: expected"},
	{"UK123456 x 1000000000", "not a valid batch: expected"},
	{"UK123456 x 10 ", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321 -", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321 - ", "not a valid batch: expected"},
	{"UK123456 x 10 - Ewes", "not a valid batch: expected"},
	{"UK123456 x 10  - Ewes", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321 -  Ewes", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321 - Ewes ", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321-Ewes", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321 - Ew\tes", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321 - Ewes\n", "not a valid batch: expected"},
	{"UK123456 x 10 UK65\x004321 - Ewes", "not a valid batch: expected"},
	{"UK123456 x 10 UK654321 - \xffEwes", "not a valid batch: expected"},
	{" UK123456 x 10", "not a valid batch: expected"},
}

func TestParseBatchNearMisses(t *testing.T) {
	t.Parallel()
	for _, tt := range batchNearMisses {
		b, err := ParseBatch(tt.in)
		if err == nil {
			t.Errorf("ParseBatch(%q) = %q, want an error", tt.in, b)
			continue
		}
		checkErr(t, tt.in, err, CodeBadFormat, tt.msg)
	}
}

func TestBatchZeroAndText(t *testing.T) {
	t.Parallel()
	var b Batch
	if diff := cmp.Diff(batchParts{}, batchOf(b)); diff != "" || !b.IsZero() {
		t.Errorf("zero batch (-want +got):\n%s", diff)
	}
	if err := b.UnmarshalText([]byte("UK123456 X 010 UK654321 - Ewes")); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.MarshalText(); string(got) != "UK123456 x 10 UK654321 - Ewes" {
		t.Errorf("MarshalText = %q", got)
	}
	if err := b.UnmarshalText([]byte("UK123456 x 0")); err == nil || b.Count() != 10 {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, b)
	}
	var n BatchNumber
	if err := n.UnmarshalText([]byte("UNKNOWN")); err != nil || !n.IsUnknown() {
		t.Fatalf("UnmarshalText(UNKNOWN) = %v, %q", err, n)
	}
	if got, _ := n.MarshalText(); string(got) != "unknown" {
		t.Errorf("MarshalText = %q", got)
	}
	if err := n.UnmarshalText([]byte("UK1")); err == nil || !n.IsUnknown() {
		t.Errorf("UnmarshalText(bad) = %v, left %q", err, n)
	}
}

func FuzzParseBatchNumber(f *testing.F) {
	for _, s := range append([]string{"UK123456", "unknown", "UNKNOWN", "Unknown"}, batchNumberNearMisses...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := fuzzRoundTrip(t, s, ParseBatchNumber); ok && n.IsUnknown() != strings.EqualFold(s, "unknown") {
			t.Fatalf("%q: IsUnknown = %v", s, n.IsUnknown())
		}
	})
}

func FuzzParseBatch(f *testing.F) {
	for _, s := range []string{"UK123456 x 10", "UK123456 x 10 UK654321 - Ewes", "unknown x 3", "UK123456 X 010 a x b - c - d"} {
		f.Add(s)
	}
	for _, tt := range batchNearMisses {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, ok := fuzzRoundTrip(t, s, ParseBatch)
		if !ok {
			return
		}
		if b.Count() < 1 || b.Number().IsZero() || (b.Mark() == "") != (b.StockType() == "") {
			t.Fatalf("%q: bad batch %#v", s, b)
		}
	})
}
