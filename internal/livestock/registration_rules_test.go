package livestock

import (
	"slices"
	"strings"
	"testing"
)

// farm is the registering keeper's holding, other another keeper's.
var farm, other = MustCPH("01/100/0257"), MustCPH("01/100/0264")

// validBirth is a birth registration on farm that breaks no rule, with the
// facts that make it so.
func validBirth(t *testing.T) (Registration, RegistrationFacts) {
	t.Helper()
	calf, err := ParseTag(SpeciesCattle, "UK442501500101")
	if err != nil {
		t.Fatal(err)
	}
	r := Registration{
		Tag: calf, Species: SpeciesCattle, Sex: SexFemale, Breed: "HOL",
		BirthSite: []SiteID{{Identifier: farm.String(), Type: SiteHolding}}, BirthDate: mustDate(t, "2026-11-10"), BirthYear: 2026,
		BirthDam: "UK442501300001", RegistrationSite: farm, RegistrationDate: mustDate(t, "2026-11-20"),
		IdentificationDate: mustDate(t, "2026-11-11"), Category: CategoryBirth,
	}
	f := RegistrationFacts{
		Received: mustDate(t, "2026-11-20"), IssuedTo: &farm, IssuedFor: SpeciesCattle,
		BreedKnown: func(sp Species, c string) bool { return c == "HOL" && sp == SpeciesCattle },
		SiteKnown: func(s SiteID) bool {
			return s.Type != SiteHolding || s.Identifier == farm.String() || s.Identifier == other.String()
		},
		BirthDam: &AnimalRecord{Species: SpeciesCattle, Sex: SexFemale, State: StateRegistered, Holding: farm},
	}
	return r, f
}

func TestCheckRegistration(t *testing.T) {
	t.Parallel()
	base := func() (Registration, RegistrationFacts) { return validBirth(t) }
	for _, tc := range []struct {
		name       string
		change     func(*Registration, *RegistrationFacts)
		errs       []Code
		warns      []Code
		restricted bool
	}{
		{"valid birth registration", func(*Registration, *RegistrationFacts) {}, nil, nil, false},
		{"registered already", func(r *Registration, f *RegistrationFacts) { f.Registered = true }, []Code{CodeRegistered}, nil, false},
		{"never issued", func(r *Registration, f *RegistrationFacts) { f.IssuedTo = nil }, []Code{CodeNotIssued}, nil, false},
		{"issued elsewhere", func(r *Registration, f *RegistrationFacts) { f.IssuedTo = &other }, []Code{CodeNotIssued}, nil, false},
		{"issued for sheep", func(r *Registration, f *RegistrationFacts) { f.IssuedFor = SpeciesSheep }, []Code{CodeNotIssued}, nil, false},
		{"registered elsewhere", func(r *Registration, f *RegistrationFacts) { f.Registered, f.IssuedTo = true, &other }, []Code{CodeNotIssued}, nil, false},
		{"unknown breed", func(r *Registration, f *RegistrationFacts) { r.Breed = "XYZ" }, []Code{CodeBreedUnknown}, nil, false},
		{"no breed is fine", func(r *Registration, f *RegistrationFacts) { r.Breed = "" }, nil, nil, false},
		{"unknown birth site", func(r *Registration, f *RegistrationFacts) {
			r.BirthSite = []SiteID{{Identifier: "99/999/9999", Type: SiteHolding}}
		}, []Code{CodeBirthSiteUnknown, CodeBornElsewhere}, nil, false},
		{"born on another holding", func(r *Registration, f *RegistrationFacts) {
			r.BirthSite = []SiteID{{Identifier: other.String(), Type: SiteHolding}}
		}, []Code{CodeBornElsewhere}, nil, false},
		{"birth after registration", func(r *Registration, f *RegistrationFacts) {
			r.BirthDate, r.BirthYear = mustDate(t, "2026-11-21"), 0
		}, []Code{CodeDateOrder}, nil, false},
		{"identified before birth", func(r *Registration, f *RegistrationFacts) { r.IdentificationDate = mustDate(t, "2026-11-09") }, []Code{CodeDateOrder}, nil, false},
		{"registration in the future", func(r *Registration, f *RegistrationFacts) { r.RegistrationDate = mustDate(t, "2026-11-21") }, []Code{CodeDateOrder}, nil, false},
		{"sire female, on an import", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite, r.BirthDam, f.BirthDam = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}, "", nil
			r.Sire, f.Sire = "UK442501300002", &AnimalRecord{Species: SpeciesCattle, Sex: SexFemale}
		}, []Code{CodeSireInvalid}, nil, false},
		{"birth dam male, on an import", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}
			f.BirthDam.Sex = SexMale
		}, []Code{CodeDamNotFemale}, nil, false},
		{"birth dam a sheep, dead, elsewhere, on an import", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}
			f.BirthDam.Species, f.BirthDam.State, f.BirthDam.Holding = SpeciesSheep, StateDead, other
		}, []Code{CodeDamSpecies}, nil, false},
		{"birth dam dead and elsewhere, on an import", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}
			f.BirthDam.State, f.BirthDam.Holding = StateDead, other
		}, nil, nil, false},
		{"year disagrees", func(r *Registration, f *RegistrationFacts) { r.BirthYear = 2025 }, []Code{CodeBirthYear}, nil, false},
		{"death before birth", func(r *Registration, f *RegistrationFacts) { r.DeathDate = mustDate(t, "2026-11-01") }, []Code{CodeDeathBeforeBirth}, nil, false},
		{"registered dead", func(r *Registration, f *RegistrationFacts) { r.DeathDate = mustDate(t, "2026-11-12") }, nil, nil, false},
		{"no dam", func(r *Registration, f *RegistrationFacts) { r.BirthDam = "" }, []Code{CodeDamRequired}, nil, false},
		{"dam unknown", func(r *Registration, f *RegistrationFacts) { f.BirthDam = nil }, []Code{CodeDamUnknown}, nil, false},
		{"dam male", func(r *Registration, f *RegistrationFacts) { f.BirthDam.Sex = SexMale }, []Code{CodeDamNotFemale}, nil, false},
		{"dam a sheep", func(r *Registration, f *RegistrationFacts) { f.BirthDam.Species = SpeciesSheep }, []Code{CodeDamSpecies}, nil, false},
		{"dam dead", func(r *Registration, f *RegistrationFacts) { f.BirthDam.State = StateDead }, []Code{CodeDamNotAlive}, nil, false},
		{"dam elsewhere", func(r *Registration, f *RegistrationFacts) { f.BirthDam.Holding = other }, []Code{CodeDamElsewhere}, nil, false},
		// Another keeper's dam: that she is not here, and nothing of her sex,
		// species or state (TestRegistrationSaysNothingOfAnotherKeepersAnimals).
		{"dam elsewhere, male, a sheep, dead", func(r *Registration, f *RegistrationFacts) {
			f.BirthDam.Holding, f.BirthDam.Sex, f.BirthDam.Species, f.BirthDam.State = other, SexMale, SpeciesSheep, StateDead
		}, []Code{CodeDamElsewhere}, nil, false},
		{"dam born after her calf", func(r *Registration, f *RegistrationFacts) { f.BirthDam.Born = mustDate(t, "2026-11-11") }, []Code{CodeDamTooYoung}, nil, false},
		{"dam born the same day", func(r *Registration, f *RegistrationFacts) { f.BirthDam.Born = mustDate(t, "2026-11-10") }, []Code{CodeDamTooYoung}, nil, false},
		{"dam born the day before", func(r *Registration, f *RegistrationFacts) { f.BirthDam.Born = mustDate(t, "2026-11-09") }, nil, nil, false},
		{"sire female", func(r *Registration, f *RegistrationFacts) {
			r.Sire, f.Sire = "UK442501300002", &AnimalRecord{Species: SpeciesCattle, Sex: SexFemale}
		}, []Code{CodeSireInvalid}, nil, false},
		{"sire the calf itself", func(r *Registration, f *RegistrationFacts) { r.Sire = r.Tag.String() }, []Code{CodeSireInvalid}, nil, false},
		{"sire born after the calf", func(r *Registration, f *RegistrationFacts) {
			r.Sire, f.Sire = "UK442501300002", &AnimalRecord{Species: SpeciesCattle, Sex: SexMale, Born: mustDate(t, "2026-11-12")}
		}, []Code{CodeSireInvalid}, nil, false},
		{"sire born before the calf", func(r *Registration, f *RegistrationFacts) {
			r.Sire, f.Sire = "UK442501300002", &AnimalRecord{Species: SpeciesCattle, Sex: SexMale, Born: mustDate(t, "2024-03-01")}
		}, nil, nil, false},
		// A birth given by its year alone is held to the same rules by year
		// (an import: a birth registration gives the date of cattle's birth).
		{"year only: death in an earlier year", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite, r.BirthDam, f.BirthDam = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}, "", nil
			r.BirthDate, r.BirthYear, r.IdentificationDate, r.DeathDate = Date{}, 2020, Date{}, mustDate(t, "2019-12-31")
		}, []Code{CodeDeathBeforeBirth}, nil, false},
		{"year only: death later that year", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite, r.BirthDam, f.BirthDam = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}, "", nil
			r.BirthDate, r.BirthYear, r.IdentificationDate, r.DeathDate = Date{}, 2020, Date{}, mustDate(t, "2020-01-01")
		}, nil, nil, false},
		{"year only: genetic dam and sire born in later years", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite, r.BirthDam, f.BirthDam = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}, "", nil
			r.BirthDate, r.BirthYear, r.IdentificationDate = Date{}, 2020, Date{}
			r.GeneticDam, f.GeneticDam = "UK442501300003", &AnimalRecord{Species: SpeciesCattle, Sex: SexFemale, Born: mustDate(t, "2021-01-01")}
			r.Sire, f.Sire = "UK442501300002", &AnimalRecord{Species: SpeciesCattle, Sex: SexMale, Born: mustDate(t, "2021-05-01")}
		}, []Code{CodeDamTooYoung, CodeSireInvalid}, nil, false},
		{"year only: parents born that year", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.BirthSite, r.BirthDam, f.BirthDam = CategoryOther, []SiteID{{Identifier: "FR-0001", Type: SitePort}}, "", nil
			r.BirthDate, r.BirthYear, r.IdentificationDate = Date{}, 2020, Date{}
			r.GeneticDam, f.GeneticDam = "UK442501300003", &AnimalRecord{Species: SpeciesCattle, Sex: SexFemale, Born: mustDate(t, "2020-01-01")}
		}, nil, nil, false},
		{"genetic dam not registered: recorded as given", func(r *Registration, f *RegistrationFacts) { r.GeneticDam = "UK442501300003" }, nil, nil, false},
		{"genetic dam dead, elsewhere", func(r *Registration, f *RegistrationFacts) {
			r.GeneticDam, f.GeneticDam = "UK442501300003", &AnimalRecord{Species: SpeciesCattle, Sex: SexFemale, State: StateDead, Holding: other,
				Born: mustDate(t, "2020-01-01")}
		}, nil, nil, false},
		{"genetic dam male", func(r *Registration, f *RegistrationFacts) {
			r.GeneticDam, f.GeneticDam = "UK442501300003", &AnimalRecord{Species: SpeciesCattle, Sex: SexMale}
		}, []Code{CodeDamNotFemale}, nil, false},
		{"genetic dam a bison", func(r *Registration, f *RegistrationFacts) {
			r.GeneticDam, f.GeneticDam = "UK442501300003", &AnimalRecord{Species: SpeciesBison, Sex: SexFemale}
		}, []Code{CodeDamSpecies}, nil, false},
		{"genetic dam born after the calf", func(r *Registration, f *RegistrationFacts) {
			r.GeneticDam, f.GeneticDam = "UK442501300003", &AnimalRecord{Species: SpeciesCattle, Sex: SexFemale, Born: mustDate(t, "2026-11-10")}
		}, []Code{CodeDamTooYoung}, nil, false},
		{"genetic dam the calf itself", func(r *Registration, f *RegistrationFacts) { r.GeneticDam = r.Tag.String() }, []Code{CodeDamTooYoung}, nil, false},
		{"import fields on a birth registration", func(r *Registration, f *RegistrationFacts) { r.OriginalIdentifier = "FR123" }, []Code{CodeImportOnly}, nil, false},
		{"import: parents not on the system", func(r *Registration, f *RegistrationFacts) {
			r.Category, r.OriginalIdentifier, r.ImportParents = CategoryOther, "FR1234567890", []string{"FR1", "FR2"}
			r.BirthSite = []SiteID{{Identifier: "FR-0001", Type: SitePort}}
			r.BirthDam, f.BirthDam = "", nil
		}, nil, nil, false},
		{"day 27 is on time", func(r *Registration, f *RegistrationFacts) {
			r.RegistrationDate, f.Received = mustDate(t, "2026-12-07"), mustDate(t, "2026-12-07")
		}, nil, nil, false},
		{"day 28 is late", func(r *Registration, f *RegistrationFacts) {
			r.RegistrationDate, f.Received = mustDate(t, "2026-12-08"), mustDate(t, "2026-12-08")
		}, nil, []Code{CodeLateBirth}, true},
		{"bison: 7 days", func(r *Registration, f *RegistrationFacts) {
			r.Species, f.IssuedFor, f.BirthDam.Species, r.Breed = SpeciesBison, SpeciesBison, SpeciesBison, ""
		}, nil, []Code{CodeLateBirth}, true},
	} {
		r, f := base()
		tc.change(&r, &f)
		out, errs, warns := CheckRegistration(r, f)
		if got := codesOf(errs); !slices.Equal(got, tc.errs) {
			t.Errorf("%s: errors %v, want %v (%v)", tc.name, got, tc.errs, errs)
		}
		if got := codesOf(warns); !slices.Equal(got, tc.warns) {
			t.Errorf("%s: warnings %v, want %v", tc.name, got, tc.warns)
		}
		if out.Restricted != tc.restricted {
			t.Errorf("%s: restricted %v, want %v", tc.name, out.Restricted, tc.restricted)
		}
	}
}

// A registration's errors never say where another keeper's animal or herd
// is: the registrant learns that the dam is not on the registration
// holding, or that the tag was not issued there, not where either is.
func TestRegistrationSaysNothingOfAnotherKeepersAnimals(t *testing.T) {
	t.Parallel()
	r, f := validBirth(t)
	f.IssuedTo, f.BirthDam.Holding = &other, other
	_, errs, _ := CheckRegistration(r, f)
	if got := codesOf(errs); !slices.Equal(got, []Code{CodeNotIssued, CodeDamElsewhere}) {
		t.Fatalf("errors %v, want V031 and V043", errs)
	}
	for _, e := range errs {
		if strings.Contains(e.Message, other.String()) || strings.Contains(e.Value, other.String()) {
			t.Errorf("%s names the other keeper's holding: %q", e.Code, e.Message)
		}
	}
}

// TestRegistrationHidesOtherHerds: a tag not issued to the registration
// site gets one answer whether it was never issued, issued to another
// keeper's herd, or registered there already, so that registering tags
// tells a keeper nothing of another's herd.
func TestRegistrationHidesOtherHerds(t *testing.T) {
	t.Parallel()
	var answers []FieldError
	for _, change := range []func(*RegistrationFacts){
		func(f *RegistrationFacts) { f.IssuedTo = nil },
		func(f *RegistrationFacts) { f.IssuedTo = &other },
		func(f *RegistrationFacts) { f.IssuedTo, f.Registered = &other, true },
	} {
		r, f := validBirth(t)
		change(&f)
		_, errs, _ := CheckRegistration(r, f)
		if len(errs) != 1 {
			t.Fatalf("errors %+v, want one", errs)
		}
		answers = append(answers, errs[0])
	}
	for _, a := range answers[1:] {
		if a != answers[0] {
			t.Errorf("answers differ: %+v and %+v", answers[0], a)
		}
	}
}

// TestFutureDateNamesItsField: a date after today is refused at its own
// field, not as an earlier date out of order with it.
func TestFutureDateNamesItsField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(*Registration)
		want   []string
	}{
		{"birth tomorrow", func(r *Registration) { r.BirthDate, r.BirthYear = mustDate(t, "2026-11-21"), 0 }, []string{"/birth/date"}},
		{"identified tomorrow", func(r *Registration) { r.IdentificationDate = mustDate(t, "2026-11-21") }, []string{"/registration/identificationDate"}},
		{"identified and registered tomorrow", func(r *Registration) {
			r.IdentificationDate, r.RegistrationDate = mustDate(t, "2026-11-21"), mustDate(t, "2026-11-21")
		}, []string{"/registration/identificationDate", "/registration/date"}},
	} {
		r, f := validBirth(t)
		tc.change(&r)
		_, errs, _ := CheckRegistration(r, f)
		var got []string
		for _, e := range errs {
			got = append(got, e.Source)
			if !strings.Contains(e.Message, "after today") {
				t.Errorf("%s: %s says %q, want it after today", tc.name, e.Source, e.Message)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: errors at %v, want %v (%v)", tc.name, got, tc.want, errs)
		}
	}
}

// TestBornElsewhereNamesWhatWasSent: V039's value is the birth site as
// sent, not the registration holding it should have been.
func TestBornElsewhereNamesWhatWasSent(t *testing.T) {
	t.Parallel()
	r, f := validBirth(t)
	r.BirthSite = []SiteID{{Identifier: other.String(), Type: SiteHolding}}
	_, errs, _ := CheckRegistration(r, f)
	if len(errs) != 1 || errs[0].Code != CodeBornElsewhere || errs[0].Value != other.String() {
		t.Errorf("errors = %+v, want V039 with value %s", errs, other)
	}
}
