package store

import (
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// The store spells a species as the movements interface does (Sheep,
// Goats, Deer) and one that interface does not carry as its registration
// name with a capital (Cattle, Bison, Buffalo), as the sandbox seed and the
// trace interface do; no species is "". Records hold a livestock.Species,
// read by ParseSpecies where a row is scanned and written back by
// SpeciesName, so a stored spelling reads back and writes back unchanged.

// speciesNames are the store's spellings, by Species: worked out once, so
// that writing a species costs an index, not a string built each time.
var speciesNames = func() (names [livestock.SpeciesBuffalo + 1]string) {
	for sp := livestock.SpeciesSheep; sp <= livestock.SpeciesBuffalo; sp++ {
		if n := sp.MovementName(); n != "" {
			names[sp] = n
		} else if n := sp.RegistrationName(); n != "" {
			names[sp] = strings.ToUpper(n[:1]) + n[1:]
		}
	}
	return names
}()

// SpeciesName is sp as the store spells it: "" for the zero Species.
func SpeciesName(sp livestock.Species) string {
	if int(sp) < len(speciesNames) {
		return speciesNames[sp]
	}
	return ""
}

// ParseSpecies reads a species spelled exactly as SpeciesName spells one;
// "" is the zero Species. Any other spelling is an error rather than a
// near match, which would be written back spelled otherwise.
func ParseSpecies(s string) (livestock.Species, error) {
	for sp, n := range speciesNames {
		if n == s {
			return livestock.Species(sp), nil // index 0 is "": none
		}
	}
	return 0, fmt.Errorf("%q is not a species as the store spells one", s)
}
