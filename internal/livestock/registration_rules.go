package livestock

import (
	"fmt"
	"strings"
)

// CheckRegistration applies the registration rules of the interface and
// domain-notes §2–4. Every broken rule is an error; a birth registration
// received after the statutory limit is still registered, with a warning,
// and the animal may not leave its holding.
func CheckRegistration(r Registration, f RegistrationFacts) (RegistrationOutcome, []FieldError, []FieldError) {
	var errs, warns []FieldError
	bad := func(code Code, at, value, format string, args ...any) {
		errs = append(errs, FieldError{Code: code, Source: at, Value: value, Message: fmt.Sprintf(format, args...)})
	}
	id := r.Tag.String()
	switch {
	case f.IssuedTo == nil || *f.IssuedTo != r.RegistrationSite:
		// Whether and where it was issued, and whether it is registered,
		// are another keeper's business: one answer for all of them.
		bad(CodeNotIssued, "/animal/identifier", id, "%s was not issued to a herd on the registration site %s", id, r.RegistrationSite)
	case f.Registered:
		bad(CodeRegistered, "/animal/identifier", id, "%s is registered already", id)
	case f.IssuedFor != r.Species && !(f.IssuedFor.Bovine() && r.Species.Bovine()):
		bad(CodeNotIssued, "/animal/identifier", id, "%s was issued for %s, not %s", id, f.IssuedFor.RegistrationName(), r.Species.RegistrationName())
	}
	if r.Breed != "" && f.BreedKnown != nil && !f.BreedKnown(r.Species, r.Breed) {
		bad(CodeBreedUnknown, "/breed/code", r.Breed, "%s is not a breed code for %s (see /v1/StandingData)", r.Breed, r.Species.RegistrationName())
	}
	for _, g := range []struct {
		sites      []SiteID
		code       Code
		at, called string
	}{
		{r.BirthSite, CodeBirthSiteUnknown, "/birth/site", "birth site"},
		{r.DeathSites, CodeSiteUnknown, "/death/site", "death site"},
		{r.CarcassSites, CodeSiteUnknown, "/death/carcassCollectionSite", "carcass collection site"},
	} {
		for i, s := range g.sites {
			if f.SiteKnown != nil && !f.SiteKnown(s) {
				bad(g.code, fmt.Sprintf("%s/identifiers/%d/identifier", g.at, i), s.Identifier, "%s %s (%s) is not known", g.called, s.Identifier, s.Type)
			}
		}
	}
	checkDates(r, f, bad)
	checkGeneticDam(r, f, bad)
	checkSire(r, f, bad)
	switch r.Category {
	case CategoryBirth:
		checkBirthRegistration(r, f, bad)
	case CategoryOther:
		// Imports and other cases: parents not on the system are recorded
		// as given, without validation (the interface document says so);
		// a birth dam the registry holds is still a dam.
		checkDam(r, r.BirthDam, f.BirthDam, "/registration/birthDam/identifier", "birth dam", bad)
		// But a calf born here is a birth registration, late or not
		// (domain-notes §4): as category registration it escaped the
		// birth-registration deadline, W003 and the movement restriction.
		for i, s := range r.BirthSite {
			if s.Type == SiteHolding && s.Identifier == r.RegistrationSite.String() {
				bad(CodeBornHere, fmt.Sprintf("/birth/site/identifiers/%d/identifier", i), s.Identifier,
					"the animal was born on the registering holding %s: register it with category birthRegistration", s.Identifier)
				break
			}
		}
	}
	if len(errs) > 0 {
		return RegistrationOutcome{}, errs, nil
	}
	out := RegistrationOutcome{Dead: !r.DeathDate.IsZero()}
	if limit, ok := StatutoryDays[r.Species]; ok && r.Category == CategoryBirth {
		if age := f.Received.DaysSince(r.BirthDate); age > limit {
			out.Restricted, out.Reason = true, fmt.Sprintf("%s: received %d days after birth, the limit for %s is %d", RestrictedNote, age, r.Species.RegistrationName(), limit)
			warns = append(warns, FieldError{Code: CodeLateBirth, Source: "/birth/date", Value: r.BirthDate.String(),
				Message: fmt.Sprintf("registered %d days after birth, after the limit of %d days: no passport is issued and the animal may not leave its holding", age, limit)})
		}
	}
	return out, nil, warns
}

// checkDates: birth ≤ identification ≤ registration ≤ today; birth.year
// agrees with birth.date; death is on or after birth and not in the future.
func checkDates(r Registration, f RegistrationFacts, bad func(Code, string, string, string, ...any)) {
	order := []struct {
		at   string
		date Date
	}{{"/birth/date", r.BirthDate}, {"/registration/identificationDate", r.IdentificationDate},
		{"/registration/date", r.RegistrationDate}}
	// A date after today is that date's error, and is left out of the
	// order: a birth tomorrow is not an identification before the birth.
	prev, prevAt := Date{}, ""
	for _, d := range order {
		if d.date.IsZero() {
			continue
		}
		if d.date.After(f.Received) {
			bad(CodeDateOrder, d.at, d.date.String(), "%s is after today (%s)", d.date, f.Received)
			continue
		}
		if !prev.IsZero() && d.date.Before(prev) {
			bad(CodeDateOrder, d.at, d.date.String(), "%s is before %s (%s)", d.date, prevAt, prev)
		}
		prev, prevAt = d.date, d.at
	}
	if r.BirthYear != 0 && !r.BirthDate.IsZero() && fmt.Sprint(r.BirthYear) != r.BirthDate.String()[:4] {
		bad(CodeBirthYear, "/birth/year", fmt.Sprint(r.BirthYear), "birth.year is %d but birth.date is in %s", r.BirthYear, r.BirthDate.String()[:4])
	}
	// A birth given by its year alone is held to the same order, by year.
	if r.BirthYear != 0 && r.BirthDate.IsZero() && !prev.IsZero() && fmt.Sprint(r.BirthYear) > prev.String()[:4] {
		bad(CodeDateOrder, "/birth/year", fmt.Sprint(r.BirthYear), "born in %d, after %s (%s)", r.BirthYear, prevAt, prev)
	}
	if !r.DeathDate.IsZero() {
		switch {
		case r.BirthDate.IsZero() && r.BirthYear != 0 && r.DeathDate.String()[:4] < fmt.Sprint(r.BirthYear):
			bad(CodeDeathBeforeBirth, "/death/date", r.DeathDate.String(), "death on %s is before the year of birth, %d", r.DeathDate, r.BirthYear)
		case r.DeathDate.Before(r.BirthDate):
			bad(CodeDeathBeforeBirth, "/death/date", r.DeathDate.String(), "death on %s is before birth on %s", r.DeathDate, r.BirthDate)
		case r.DeathDate.After(f.Received):
			bad(CodeDateOrder, "/death/date", r.DeathDate.String(), "%s is after today (%s)", r.DeathDate, f.Received)
		}
	}
}

// checkGeneticDam: a genetic dam named in registration is not the animal
// itself and, when registered on a holding the registrant may read, is a
// female of the species born before it. She may be dead or on another
// holding (an embryo outlives its donor and travels); a tag the registry
// does not hold is recorded as given, as the sire's is.
func checkGeneticDam(r Registration, f RegistrationFacts, bad func(Code, string, string, string, ...any)) {
	checkDam(r, r.GeneticDam, f.GeneticDam, "/registration/geneticDam/identifier", "genetic dam", bad)
}

// checkDam holds a dam named by id, whose record is dam (nil when the
// registry does not hold her on a holding the registrant may read), to
// what a dam is: not the animal itself, female, of its species and born
// before it. Where she is and whether she lives are not asked.
func checkDam(r Registration, id string, dam *AnimalRecord, at, what string, bad func(Code, string, string, string, ...any)) {
	switch {
	case id == "":
	case id == r.Tag.String():
		bad(CodeDamTooYoung, at, id, "%s is the animal being registered", id)
	case dam == nil:
	case dam.Sex != SexFemale:
		bad(CodeDamNotFemale, at, id, "the %s %s is not female", what, id)
	case dam.Species != r.Species:
		bad(CodeDamSpecies, at, id, "the %s %s is of species %s, not %s", what, id, dam.Species.RegistrationName(), r.Species.RegistrationName())
	case !bornBefore(dam.Born, r):
		bad(CodeDamTooYoung, at, id, "the %s %s was born on %s, not before the animal (%s)", what, id, dam.Born, birthOf(r))
	}
}

// bornBefore reports whether a parent born on born may be the parent of
// r's animal: born before its birth date, or, when r gives only the year,
// in that year or before. An unknown date on either side is no refusal.
func bornBefore(born Date, r Registration) bool {
	switch {
	case born.IsZero():
		return true
	case !r.BirthDate.IsZero():
		return born.Before(r.BirthDate)
	case r.BirthYear != 0:
		return born.String()[:4] <= fmt.Sprint(r.BirthYear)
	}
	return true
}

// birthOf is r's birth for a message: its date, or its year.
func birthOf(r Registration) string {
	if r.BirthDate.IsZero() && r.BirthYear != 0 {
		return fmt.Sprint("born in ", r.BirthYear)
	}
	return r.BirthDate.String()
}

// checkSire: the sire is not the animal itself, and a registered sire
// the registrant may read is a male of the species born before it,
// whatever the category.
func checkSire(r Registration, f RegistrationFacts, bad func(Code, string, string, string, ...any)) {
	const at = "/registration/sire/identifier"
	switch s := f.Sire; {
	case r.Sire != "" && r.Sire == r.Tag.String():
		bad(CodeSireInvalid, at, r.Sire, "%s is the animal being registered", r.Sire)
	case s == nil:
	case s.Sex != SexMale || s.Species != r.Species:
		bad(CodeSireInvalid, at, r.Sire, "%s is not a male %s", r.Sire, r.Species.RegistrationName())
	case !bornBefore(s.Born, r):
		bad(CodeSireInvalid, at, r.Sire, "the sire %s was born on %s, not before the animal (%s)", r.Sire, s.Born, birthOf(r))
	}
}

// checkBirthRegistration: born on the registering holding, to a
// registered birth dam that is female, of the species, alive and there.
func checkBirthRegistration(r Registration, f RegistrationFacts, bad func(Code, string, string, string, ...any)) {
	if r.OriginalIdentifier != "" {
		bad(CodeImportOnly, "/OriginalIdentifier", r.OriginalIdentifier, "OriginalIdentifier belongs to category registration (imports)")
	}
	if r.ImportParentsGiven || len(r.ImportParents) > 0 {
		bad(CodeImportOnly, "/importParents", "", "importParents belong to category registration (imports)")
	}
	born := false
	var given []string // the birth site as sent, for the error's value
	for _, s := range r.BirthSite {
		if s.Type == SiteHolding && s.Identifier == r.RegistrationSite.String() {
			born = true
		}
		given = append(given, s.Identifier)
	}
	if !born {
		bad(CodeBornElsewhere, "/birth/site", strings.Join(given, ", "), "a birth registration is made on the holding of birth: the birth site must be holding %s", r.RegistrationSite)
	}
	// The dam's holding is checked before anything else about her: a dam
	// on another holding may be another keeper's animal, and her sex,
	// species, state, birth and whereabouts are not the registrant's to
	// learn. Only that she is registered, and not here, is said; the
	// facts hold no dam on a holding the registrant may not read at all
	// (she is unknown, as an animal never registered).
	dam, at := f.BirthDam, "/registration/birthDam/identifier"
	switch {
	case r.BirthDam == "":
		bad(CodeDamRequired, at, "", "a birth registration names the birth dam")
	case dam == nil:
		bad(CodeDamUnknown, at, r.BirthDam, "%s is not a registered animal", r.BirthDam)
	case dam.Holding != r.RegistrationSite:
		bad(CodeDamElsewhere, at, r.BirthDam, "%s is not on the registration holding %s", r.BirthDam, r.RegistrationSite)
	case dam.Sex != SexFemale:
		bad(CodeDamNotFemale, at, r.BirthDam, "%s is not female", r.BirthDam)
	case dam.Species != r.Species:
		bad(CodeDamSpecies, at, r.BirthDam, "%s is of species %s, not %s", r.BirthDam, dam.Species.RegistrationName(), r.Species.RegistrationName())
	case dam.State != StateRegistered:
		bad(CodeDamNotAlive, at, r.BirthDam, "%s is recorded %s", r.BirthDam, dam.State)
	case !bornBefore(dam.Born, r):
		bad(CodeDamTooYoung, at, r.BirthDam, "%s was born on %s, not before her calf (%s)", r.BirthDam, dam.Born, birthOf(r))
	}
}
