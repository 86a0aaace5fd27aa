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

// SpeciesName is sp as the store spells it: "" for the zero Species.
func SpeciesName(sp livestock.Species) string {
	if n := sp.MovementName(); n != "" {
		return n
	}
	n := sp.RegistrationName()
	if n == "" {
		return ""
	}
	return strings.ToUpper(n[:1]) + n[1:]
}

// ParseSpecies reads a species spelled exactly as SpeciesName spells one;
// "" is the zero Species. Any other spelling is an error rather than a
// near match, which would be written back spelled otherwise.
func ParseSpecies(s string) (livestock.Species, error) {
	if s == "" {
		return 0, nil
	}
	if sp := livestock.SpeciesNamed(s); !sp.IsZero() && SpeciesName(sp) == s {
		return sp, nil
	}
	return 0, fmt.Errorf("%q is not a species as the store spells one", s)
}
