package sandbox

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestCalfRegistration: keeper1's calf is born on its producer holding to
// its first cow, three days before the day it is registered.
func TestCalfRegistration(t *testing.T) {
	t.Parallel()
	k := Keepers[0]
	if got := k.Cow().String(); got != "UK442501300001" {
		t.Errorf("keeper1's cow = %s, want UK442501300001", got)
	}
	if got := k.CalfTag(151).String(); got != "UK442501600151" {
		t.Errorf("keeper1's calf 151 = %s, want UK442501600151", got)
	}
	type site struct {
		Identifiers []struct{ Identifier, Type string }
	}
	var v struct {
		Animal struct{ Identifier, Species, Sex string }
		Birth  struct {
			Site site
			Date string
			Year int
		}
		Registration struct {
			BirthDam                           struct{ Identifier string }
			Site                               site
			Date, Category, IdentificationDate string
		}
	}
	today := livestock.UKDate(time.Date(2027, 1, 2, 12, 0, 0, 0, time.UTC))
	tag := k.CalfTag(101).String()
	if err := json.Unmarshal(k.CalfRegistration(tag, today), &v); err != nil {
		t.Fatal(err)
	}
	got := []string{v.Animal.Identifier, v.Animal.Species, v.Animal.Sex, v.Birth.Site.Identifiers[0].Identifier,
		v.Birth.Date, v.Registration.BirthDam.Identifier, v.Registration.Site.Identifiers[0].Identifier,
		v.Registration.Date, v.Registration.Category, v.Registration.IdentificationDate}
	want := []string{tag, "cattle", "female", "01/100/0257", "2026-12-30", "UK442501300001", "01/100/0257",
		"2027-01-02", "birthRegistration", "2026-12-30"}
	if diff := cmp.Diff(want, got); diff != "" || v.Birth.Year != 2026 {
		t.Errorf("calf (-want +got):\n%s; birth year %d", diff, v.Birth.Year)
	}
}
