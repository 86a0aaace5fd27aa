package livestock

import (
	"fmt"
	"strings"
)

// Species is a kind of livestock the registry knows. The two interfaces
// spell species differently: the movements interface writes Sheep, Goats,
// Deer, Cattle (plural Goats, capitalised) and the registration interface writes
// lower case (bison, buffalo, cattle, deer, goats, sheep). A Species is read
// with the parser of the interface it came from and written back with the
// matching name, so one interface's spelling never leaks into the other.
//
// Species is a small integer rather than a string so that no spelling can
// be converted into one without a parser. The zero value is "no species".
type Species uint8

const (
	SpeciesSheep Species = iota + 1
	SpeciesGoats
	SpeciesDeer
	SpeciesCattle
	SpeciesBison
	SpeciesBuffalo
)

// names gives the species' movement and registration spellings; an empty
// movement name means the movements interface does not carry it.
func (sp Species) names() (movement, registration string) {
	switch sp {
	case SpeciesSheep:
		return "Sheep", "sheep"
	case SpeciesGoats:
		return "Goats", "goats"
	case SpeciesDeer:
		return "Deer", "deer"
	case SpeciesCattle:
		return "Cattle", "cattle"
	case SpeciesBison:
		return "", "bison"
	case SpeciesBuffalo:
		return "", "buffalo"
	}
	return "", ""
}

const (
	movementSpeciesList     = "Sheep, Goats, Deer, Cattle"
	registrationSpeciesList = "bison, buffalo, cattle, deer, goats, sheep"
)

// MovementSpeciesNames are the species of the movements interface, as it
// spells them: Sheep, Goats, Deer, Cattle.
func MovementSpeciesNames() []string {
	var names []string
	for sp := SpeciesSheep; sp <= SpeciesBuffalo; sp++ {
		if m, _ := sp.names(); m != "" {
			names = append(names, m)
		}
	}
	return names
}

// ParseMovementSpecies accepts exactly Sheep, Goats or Deer, the spellings of
// the movements interface.
func ParseMovementSpecies(s string) (Species, error) {
	for sp := SpeciesSheep; sp <= SpeciesBuffalo; sp++ {
		if m, _ := sp.names(); m != "" && s == m {
			return sp, nil
		}
	}
	hint := ""
	if strings.EqualFold(s, "goat") {
		hint = "use Goats"
	}
	for sp := SpeciesSheep; sp <= SpeciesBuffalo && hint == ""; sp++ {
		if m, _ := sp.names(); m != "" && strings.EqualFold(s, m) {
			hint = "species names are case-sensitive: use " + m
		}
	}
	return 0, speciesError(s, movementSpeciesList, hint)
}

// ParseRegistrationSpecies accepts exactly bison, buffalo, cattle, deer,
// goats or sheep, the spellings of the registration interface.
func ParseRegistrationSpecies(s string) (Species, error) {
	for sp := SpeciesSheep; sp <= SpeciesBuffalo; sp++ {
		if _, r := sp.names(); s == r {
			return sp, nil
		}
	}
	hint := ""
	if strings.EqualFold(s, "goat") {
		hint = "use goats"
	}
	for sp := SpeciesSheep; sp <= SpeciesBuffalo && hint == ""; sp++ {
		if _, r := sp.names(); strings.EqualFold(s, r) {
			hint = "species names are lower case: use " + r
		}
	}
	return 0, speciesError(s, registrationSpeciesList, hint)
}

func speciesError(value, allowed, hint string) *Error {
	why := "use one of " + allowed
	if hint != "" {
		why = fmt.Sprintf("%s (allowed: %s)", hint, allowed)
	}
	return ruleError(CodeBadEnum, "species", value, why)
}

// MovementName is the movements interface's spelling (Sheep, Goats, Deer),
// or "" for a species that interface does not carry.
func (sp Species) MovementName() string {
	m, _ := sp.names()
	return m
}

// RegistrationName is the registration interface's spelling, in lower case,
// or "" for the zero Species.
func (sp Species) RegistrationName() string {
	_, r := sp.names()
	return r
}

// String is the registration name, for logs. Wire formats use MovementName or
// RegistrationName explicitly.
func (sp Species) String() string { return sp.RegistrationName() }

func (sp Species) IsZero() bool { return sp == 0 }

// Bovine reports whether the species carries cattle ear tags: cattle, bison
// and buffalo.
func (sp Species) Bovine() bool {
	return sp == SpeciesCattle || sp == SpeciesBison || sp == SpeciesBuffalo
}
