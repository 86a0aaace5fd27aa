package standing

import (
	"slices"
	"strings"

	"github.com/google/uuid"
)

// The registration interface's reference lists (GET /v1/breeds,
// /v1/deathreasons, /v1/genotypes, /v1/rejectionreasons, /v1/hauliers)
// are views of the lists here, in the live service's shapes. Species are
// named as the registration interface names them (cattle, goats, …).

// lisNamespace makes the ids the live service gives death and rejection
// reasons (UUIDs) from the lists' codes: the same code has the same id in
// every Drover, release after release.
var lisNamespace = uuid.MustParse("6f1d2a4e-3b5c-4e8f-9a70-d2c4b6e8f013")

// ReferenceID is the UUID of the entry with code in list.
func ReferenceID(list, code string) string {
	return uuid.NewSHA1(lisNamespace, []byte(list+"/"+code)).String()
}

// Reference is one entry of a registration reference list.
type Reference struct {
	ID    string // ReferenceID of the entry
	Code  string
	Name  string // the entry's description
	Extra map[string]string
}

// breedLists are the lists a species' breeds are in; an entry's own
// species property, when it has one, narrows a list to that species.
var breedLists = map[string]string{"cattle": "cattleBreeds", "bison": "cattleBreeds", "buffalo": "cattleBreeds",
	"sheep": "sheepBreeds", "goats": "goatBreeds"}

// Breeds are the breeds of species (none for deer).
func (l *Lists) Breeds(species string) []Reference {
	name := breedLists[species]
	if name == "" {
		return nil
	}
	var out []Reference
	for _, r := range l.references(name, "") {
		if sp := r.Extra["species"]; sp == "" || strings.EqualFold(sp, species) {
			out = append(out, r)
		}
	}
	return out
}

// CrossBreed reports whether a breed entry stands for crossbred animals.
func CrossBreed(r Reference) bool { return strings.Contains(strings.ToLower(r.Name), "cross") }

// DeathReasons are the death reasons that apply to species ("" for all).
func (l *Lists) DeathReasons(species string) []Reference { return l.references("deathReason", species) }

// Genotypes are the genotypes recorded for species.
func (l *Lists) Genotypes(species string) []Reference { return l.references("genotype", species) }

// RejectionReasons are the reasons for rejecting a movement of species.
func (l *Lists) RejectionReasons(species string) []Reference {
	return l.references("rejectionReason", species)
}

// Hauliers are the hauliers, each with the species it may carry (its
// Extra "species", comma-separated).
func (l *Lists) Hauliers() []Reference { return l.references("haulier", "") }

// Species splits an entry's species property; nil when it has none.
func Species(r Reference) []string {
	if r.Extra["species"] == "" {
		return nil
	}
	return strings.Split(r.Extra["species"], ",")
}

// references reads list as references; with species given, only entries
// that apply to it (those without a species property apply to all). A list
// an operator has removed is empty.
func (l *Lists) references(list, species string) []Reference {
	entries, err := l.List(list)
	if err != nil {
		return nil
	}
	var out []Reference
	for _, e := range entries {
		r := Reference{ID: ReferenceID(list, e.Code), Code: e.Code, Name: e.Description, Extra: e.Extra}
		if sp := Species(r); species == "" || sp == nil || slices.Contains(sp, species) {
			out = append(out, r)
		}
	}
	return out
}
