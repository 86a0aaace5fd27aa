package sqldb

import (
	"errors"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestCPHColScan: NULL and "" are no holding, a stored CPH reads as
// itself, and one that does not parse is an internal error, not the
// caller's invalid input.
func TestCPHColScan(t *testing.T) {
	farm := livestock.MustCPH("01/100/0001")
	for _, tt := range []struct {
		src  any
		want livestock.CPH
		bad  bool
	}{
		{nil, livestock.CPH{}, false},
		{"", livestock.CPH{}, false},
		{[]byte{}, livestock.CPH{}, false},
		{"01/100/0001", farm, false},
		{[]byte("01/100/0001"), farm, false},
		{"01/100/000", livestock.CPH{}, true},
		{int64(1), livestock.CPH{}, true},
	} {
		got := livestock.MustCPH("99/999/9999")
		err := cphCol{&got}.Scan(tt.src)
		var le *livestock.Error
		switch {
		case tt.bad && (err == nil || errors.As(err, &le)):
			t.Errorf("Scan(%#v) = %v; want an internal error", tt.src, err)
		case !tt.bad && (err != nil || got != tt.want):
			t.Errorf("Scan(%#v) = %q, %v; want %q", tt.src, got, err, tt.want)
		}
	}
	src := "27/811/2976"
	var c livestock.CPH
	if n := testing.AllocsPerRun(100, func() { _ = cphCol{&c}.Scan(src) }); n != 0 {
		t.Errorf("Scan of a stored CPH allocates %v times; want 0", n)
	}
}

// TestAnimalColsScan: a stored sex, state or flock mark reads as its value, and a
// spelling Drover never writes is an internal error, not read as none.
func TestAnimalColsScan(t *testing.T) {
	var sex livestock.Sex
	if err := (sexCol{&sex}).Scan("male"); err != nil || sex != livestock.SexMale {
		t.Errorf("sex male: %v, %v", sex, err)
	}
	if err := (sexCol{&sex}).Scan("M"); err == nil {
		t.Errorf("sex M read as %v; want an error", sex)
	}
	var st livestock.AnimalState
	if err := (animalStateCol{&st}).Scan([]byte("stolen")); err != nil || st != livestock.StateStolen {
		t.Errorf("state stolen: %v, %v", st, err)
	}
	if err := (animalStateCol{&st}).Scan("alive"); err == nil {
		t.Errorf("state alive read as %v; want an error", st)
	}
	if err := (animalStateCol{&st}).Scan(nil); err != nil || st != 0 {
		t.Errorf("state NULL: %v, %v; want none", st, err)
	}
	var mark livestock.FlockMark
	if err := (flockMarkCol{&mark}).Scan("130181"); err != nil || mark != livestock.MustFlockMark("130181") {
		t.Errorf("mark 130181: %q, %v", mark, err)
	}
	if err := (flockMarkCol{&mark}).Scan("UK130181"); err == nil {
		t.Errorf("mark UK130181 read as %q; want an error", mark)
	}
}
