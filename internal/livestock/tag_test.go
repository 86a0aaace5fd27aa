package livestock

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseTag(t *testing.T) {
	t.Parallel()
	type parts struct {
		Tag     string
		Species Species
		RFID    string
		HasRFID bool
		Mark    string
	}
	tests := []struct {
		species Species
		in      string
		want    parts
	}{
		{SpeciesSheep, "UK0130181 00001", parts{"UK0130181 00001", SpeciesSheep, "0826013018100001", true, "130181"}},
		{SpeciesSheep, "UK013018100001", parts{"UK0130181 00001", SpeciesSheep, "0826013018100001", true, "130181"}},
		{SpeciesGoats, "UK0130183 00001", parts{"UK0130183 00001", SpeciesGoats, "0826013018300001", true, "130183"}},
		{SpeciesGoats, "UK130183 00001", parts{"UK0130183 00001", SpeciesGoats, "0826013018300001", true, "130183"}},
		{SpeciesCattle, "UK 123450 6 00001", parts{"UK123450600001", SpeciesCattle, "", false, "123450"}},
		{SpeciesBison, "UK123450600001", parts{"UK123450600001", SpeciesBison, "", false, "123450"}},
		{SpeciesBuffalo, "UK123450600001", parts{"UK123450600001", SpeciesBuffalo, "", false, "123450"}},
		// The same text read as a sheep tag: the species decides.
		{SpeciesSheep, "UK123450600001", parts{"UK1234506 00001", SpeciesSheep, "0826123450600001", true, "234506"}},
	}
	for _, tt := range tests {
		tag, err := ParseTag(tt.species, tt.in)
		if err != nil {
			t.Errorf("ParseTag(%v, %q): %v", tt.species, tt.in, err)
			continue
		}
		r, ok := tag.RFID()
		got := parts{tag.String(), tag.Species(), r.String(), ok, tag.Mark().String()}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseTag(%v, %q) (-want +got):\n%s", tt.species, tt.in, diff)
		}
		if b, _ := tag.MarshalText(); string(b) != tt.want.Tag {
			t.Errorf("MarshalText = %q", b)
		}
	}
}

func TestParseTagNearMisses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		species Species
		in, msg string
	}{
		{SpeciesSheep, "UK130183 00001", "not a valid sheep tag number"}, // the goat form
		// A cattle tag whose herd mark starts with 0 or 1 has the shape of a
		// sheep tag (that is why ParseTag needs the species); others do not.
		{SpeciesSheep, "UK323450700001", "not a valid sheep tag number"},
		{SpeciesGoats, "UK323450700001", "not a valid goat tag number"},
		{SpeciesCattle, "UK0130181 00001", "not a valid cattle ear tag: check digit"},
		{SpeciesCattle, "UK123450700001", "not a valid cattle ear tag: check digit should be 6, not 7"},
		{SpeciesBison, "UK 123456", "not a valid cattle ear tag"},
		{SpeciesDeer, "UK0130181 00001", "not a valid ear tag: there is no ear tag format for deer"},
		{0, "UK0130181 00001", "not a valid ear tag: the species must be known to read a tag"},
		{99, "UK0130181 00001", "not a valid ear tag: there is no ear tag format for "},
	}
	for _, tt := range tests {
		tag, err := ParseTag(tt.species, tt.in)
		if err == nil {
			t.Errorf("ParseTag(%v, %q) = %q, want an error", tt.species, tt.in, tag)
			continue
		}
		checkErr(t, tt.in, err, CodeBadFormat, tt.msg)
	}
	var zero Tag
	if _, ok := zero.RFID(); !zero.IsZero() || ok || !zero.Species().IsZero() {
		t.Error("zero Tag is not empty")
	}
}

func FuzzParseTag(f *testing.F) {
	for _, s := range []string{"UK0130181 00001", "UK130183 00001", "UK123450600001", "UK 123450 6 00001", "UK 123456", ""} {
		for sp := Species(0); sp <= SpeciesBuffalo+1; sp++ {
			f.Add(uint8(sp), s)
		}
	}
	f.Fuzz(func(t *testing.T, species uint8, s string) {
		sp := Species(species)
		v, ok := fuzzRoundTrip(t, s, func(s string) (Tag, error) { return ParseTag(sp, s) })
		if !ok {
			return
		}
		if v.Species() != sp {
			t.Fatalf("%v %q: species %v", sp, s, v.Species())
		}
		if r, ok := v.RFID(); ok {
			if p, _ := r.Printed(); p != v.String() {
				t.Fatalf("%v %q: RFID %q prints %q", sp, s, r, p)
			}
		}
	})
}
