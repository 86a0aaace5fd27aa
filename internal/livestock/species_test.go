package livestock

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSpeciesNames(t *testing.T) {
	t.Parallel()
	type names struct{ Movement, Registration string }
	want := map[Species]names{
		SpeciesSheep:   {"Sheep", "sheep"},
		SpeciesGoats:   {"Goats", "goats"},
		SpeciesDeer:    {"Deer", "deer"},
		SpeciesCattle:  {"Cattle", "cattle"},
		SpeciesBison:   {"", "bison"},
		SpeciesBuffalo: {"", "buffalo"},
		0:              {"", ""},
		99:             {"", ""},
	}
	got := map[Species]names{}
	for sp := range want {
		got[sp] = names{sp.MovementName(), sp.RegistrationName()}
		if sp.String() != sp.RegistrationName() {
			t.Errorf("String %q, RegistrationName %q", sp, sp.RegistrationName())
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	for sp := range want {
		if m := sp.MovementName(); m != "" {
			if p, err := ParseMovementSpecies(m); err != nil || p != sp {
				t.Errorf("ParseMovementSpecies(%q) = %v, %v", m, p, err)
			}
		}
		if r := sp.RegistrationName(); r != "" {
			if p, err := ParseRegistrationSpecies(r); err != nil || p != sp {
				t.Errorf("ParseRegistrationSpecies(%q) = %v, %v", r, p, err)
			}
		}
	}
	var zero Species
	if !zero.IsZero() || SpeciesSheep.IsZero() {
		t.Error("IsZero is wrong")
	}
	for sp, bovine := range map[Species]bool{SpeciesCattle: true, SpeciesBison: true, SpeciesBuffalo: true, SpeciesSheep: false, SpeciesGoats: false, SpeciesDeer: false, 0: false} {
		if sp.Bovine() != bovine {
			t.Errorf("%v.Bovine() = %v", sp, sp.Bovine())
		}
	}
}

var movementSpeciesNearMisses = []struct{ in, msg string }{
	{"Goat", "use Goats (allowed: Sheep, Goats, Deer, Cattle)"},
	{"goat", "use Goats (allowed"},
	{"GOAT", "use Goats (allowed"},
	{"goats", "species names are case-sensitive: use Goats (allowed: Sheep, Goats, Deer, Cattle)"},
	{"sheep", "species names are case-sensitive: use Sheep"},
	{"SHEEP", "species names are case-sensitive: use Sheep"},
	{"deer", "species names are case-sensitive: use Deer"},
	{"Bison", "use one of Sheep, Goats, Deer, Cattle"},
	{"cattle", "species names are case-sensitive: use Cattle (allowed: Sheep, Goats, Deer, Cattle)"},
	{"Sheeps", "use one of Sheep, Goats, Deer, Cattle"},
	{"Deers", "use one of Sheep, Goats, Deer, Cattle"},
	{"", "use one of Sheep, Goats, Deer, Cattle"},
	{" Sheep", "use one of Sheep, Goats, Deer, Cattle"},
	{"Sheep ", "use one of Sheep, Goats, Deer, Cattle"},
	{"Pigs", "use one of Sheep, Goats, Deer, Cattle"},
	{"Sheep,Goats", "use one of Sheep, Goats, Deer, Cattle"},
}

var registrationSpeciesNearMisses = []struct{ in, msg string }{
	{"goat", "use goats (allowed: bison, buffalo, cattle, deer, goats, sheep)"},
	{"Goat", "use goats (allowed"},
	{"Goats", "species names are lower case: use goats (allowed: bison, buffalo, cattle, deer, goats, sheep)"},
	{"Cattle", "species names are lower case: use cattle"},
	{"BISON", "species names are lower case: use bison"},
	{"Sheep", "species names are lower case: use sheep"},
	{"cow", "use one of bison, buffalo, cattle, deer, goats, sheep"},
	{"bovine", "use one of bison, buffalo, cattle, deer, goats, sheep"},
	{"", "use one of bison"},
	{"sheep ", "use one of bison"},
	{"pigs", "use one of bison"},
	{"cat", "use one of bison"},
	{"goats, sheep", "use one of bison"},
}

func TestParseSpeciesNearMisses(t *testing.T) {
	t.Parallel()
	for _, tt := range movementSpeciesNearMisses {
		sp, err := ParseMovementSpecies(tt.in)
		if err == nil {
			t.Errorf("ParseMovementSpecies(%q) = %v, want an error", tt.in, sp)
			continue
		}
		checkErr(t, tt.in, err, CodeBadEnum, "not a valid species: "+tt.msg)
	}
	for _, tt := range registrationSpeciesNearMisses {
		sp, err := ParseRegistrationSpecies(tt.in)
		if err == nil {
			t.Errorf("ParseRegistrationSpecies(%q) = %v, want an error", tt.in, sp)
			continue
		}
		checkErr(t, tt.in, err, CodeBadEnum, "not a valid species: "+tt.msg)
	}
}

// movementSpecies and registrationSpecies wrap a Species so that
// fuzzRoundTrip prints it in the spelling of the parser under test.
type movementSpecies struct{ Species }
type registrationSpecies struct{ Species }

func (m movementSpecies) String() string     { return m.MovementName() }
func (r registrationSpecies) String() string { return r.RegistrationName() }

func FuzzParseMovementSpecies(f *testing.F) {
	for _, s := range []string{"Sheep", "Goats", "Deer"} {
		f.Add(s)
	}
	for _, tt := range movementSpeciesNearMisses {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzRoundTrip(t, s, func(s string) (movementSpecies, error) {
			sp, err := ParseMovementSpecies(s)
			return movementSpecies{sp}, err
		})
	})
}

func FuzzParseRegistrationSpecies(f *testing.F) {
	for _, s := range []string{"bison", "buffalo", "cattle", "deer", "goats", "sheep"} {
		f.Add(s)
	}
	for _, tt := range registrationSpeciesNearMisses {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzRoundTrip(t, s, func(s string) (registrationSpecies, error) {
			sp, err := ParseRegistrationSpecies(s)
			return registrationSpecies{sp}, err
		})
	})
}

func TestMovementSpeciesNames(t *testing.T) {
	t.Parallel()
	got := MovementSpeciesNames()
	if !slices.Equal(got, []string{"Sheep", "Goats", "Deer", "Cattle"}) {
		t.Errorf("MovementSpeciesNames() = %v", got)
	}
	for _, n := range got {
		if _, err := ParseMovementSpecies(n); err != nil {
			t.Errorf("%s does not parse: %v", n, err)
		}
	}
}
