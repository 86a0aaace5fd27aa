package standing

import (
	"slices"
	"testing"

	"github.com/google/uuid"
)

// TestReferenceLists: the registration interface's views of the lists
// filter by species, and a reason's id is a UUID that stays the same.
func TestReferenceLists(t *testing.T) {
	t.Parallel()
	l := builtInLists(t)
	codes := func(rs []Reference) []string {
		var c []string
		for _, r := range rs {
			c = append(c, r.Code)
		}
		return c
	}
	if c := codes(l.Breeds("bison")); !slices.Equal(c, []string{"BIS"}) {
		t.Errorf("bison breeds = %v", c)
	}
	if c := codes(l.Breeds("cattle")); !slices.Contains(c, "HOL") || slices.Contains(c, "BIS") || slices.Contains(c, "TEX") {
		t.Errorf("cattle breeds = %v", c)
	}
	if len(l.Breeds("deer")) != 0 || len(l.Breeds("sheep")) == 0 || len(l.Breeds("goats")) == 0 {
		t.Error("deer have breeds, or sheep or goats have none")
	}
	if c := codes(l.DeathReasons("sheep")); slices.Contains(c, "tbReactor") || !slices.Contains(c, "abattoirKill") {
		t.Errorf("sheep death reasons = %v", c)
	}
	if c := codes(l.DeathReasons("buffalo")); !slices.Contains(c, "tbReactor") {
		t.Errorf("buffalo death reasons = %v", c)
	}
	if c := codes(l.Genotypes("sheep")); len(c) != 15 || c[0] != "ARR/ARR" {
		t.Errorf("sheep genotypes = %v", c)
	}
	if len(l.Genotypes("cattle")) != 0 {
		t.Error("cattle have genotypes")
	}
	if len(l.RejectionReasons("deer")) == 0 || len(l.Hauliers()) == 0 {
		t.Error("no rejection reasons or hauliers")
	}
	r := l.DeathReasons("")[0]
	if _, err := uuid.Parse(r.ID); err != nil || r.ID != ReferenceID("deathReason", r.Code) || r.ID == ReferenceID("rejectionReason", r.Code) {
		t.Errorf("id %q of %s", r.ID, r.Code)
	}
	if !CrossBreed(Reference{Name: "Dexter Cross"}) || CrossBreed(Reference{Name: "Dexter"}) {
		t.Error("CrossBreed")
	}
}
