package registration

import (
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/jsonwire"
	"github.com/drover-registry/drover/internal/livestock"
)

// problems collects the format problems of a body, each at its pointer.
type problems []livestock.FieldError

func (p *problems) add(at string, err error) {
	e, ok := err.(*livestock.Error)
	if !ok || len(e.Fields) == 0 {
		*p = append(*p, livestock.FieldError{Code: livestock.CodeBadFormat, Source: at, Message: err.Error()})
		return
	}
	for _, f := range e.Fields {
		f.Source = at
		*p = append(*p, f)
	}
}

// decode is the package's decode, with a death reason named by its id
// (the live form) checked against the death reasons list and its name
// stored beside it; one named by a name of the list alone gets its id too.
// The live schema makes the name read-only: a name that is none of the
// list's is refused, not stored as free text.
func (s *Service) decode(data []byte) (livestock.Registration, body, error) {
	r, w, err := decode(data)
	if w.Death == nil || w.Death.Reason == nil {
		return r, w, err
	}
	reason := w.Death.Reason
	var f livestock.FieldError
	if reason.ID == "" {
		id, ok := s.deathReasonIDs[strings.ToLower(strings.TrimSpace(reason.Name))]
		if ok {
			reason.ID, reason.Name = id, s.deathReasons[id]
			return r, w, err
		}
		f = livestock.FieldError{Code: livestock.CodeBadEnum, Source: "/death/reason/name", Value: reason.Name,
			Message: "is not the name of a death reason: give its id (see GET /v1/deathreasons)"}
	} else if name, ok := s.deathReasons[strings.ToLower(reason.ID)]; ok {
		reason.ID, reason.Name = strings.ToLower(reason.ID), name
		return r, w, err
	} else {
		f = livestock.FieldError{Code: livestock.CodeBadEnum, Source: "/death/reason/id", Value: reason.ID,
			Message: "is not the id of a death reason: see GET /v1/deathreasons"}
	}
	if e, ok := err.(*livestock.Error); ok && len(e.Fields) > 0 && e.Fields[0].Code != livestock.CodeSchema {
		e.Fields = append(e.Fields, f)
		return r, w, e
	}
	if err != nil {
		return r, w, err
	}
	return r, w, livestock.Invalid("the body breaks the interface's formats", f)
}

// decode reads a registration body: identifiers by their species' rules,
// dates, and site identifiers, each problem at its JSON pointer. The
// returned body has identifiers in normal form, for storing.
func decode(data []byte) (livestock.Registration, body, error) {
	var w body
	if err := jsonwire.Decode(data, &w); err != nil {
		source, msg := jsonwire.Problem(err, "")
		return livestock.Registration{}, w, livestock.Invalid("the body cannot be read", livestock.FieldError{
			Code: livestock.CodeSchema, Source: source, Message: msg})
	}
	var r livestock.Registration
	var p problems
	var err error
	if r.Species, err = livestock.ParseRegistrationSpecies(w.Animal.Species); err != nil {
		p.add("/animal/species", err)
	} else if r.Tag, err = livestock.ParseTag(r.Species, w.Animal.Identifier); err != nil {
		p.add("/animal/identifier", err)
	} else {
		w.Animal.Identifier = r.Tag.String()
	}
	w.dropReadOnly()
	r.Name, r.ProductionType = w.Animal.Name, w.Animal.ProductionType
	if w.Animal.Sex != "" { // the schema (openapi) has refused any other spelling already
		if r.Sex, err = livestock.ParseSex(w.Animal.Sex); err != nil {
			p.add("/animal/sex", err)
		}
	}
	if w.Breed != nil && w.Breed.Code == nil { // only the read-only name: no breed reported
		w.Breed = nil
	}
	if w.Breed != nil {
		r.Breed = *w.Breed.Code
		if strings.TrimSpace(r.Breed) == "" { // no code is not in the list either; leaving breed out is how to give none
			p = append(p, livestock.FieldError{Code: livestock.CodeBreedUnknown, Source: "/breed/code", Value: r.Breed,
				Message: "is empty: give a code from the breed list of the species (see /v1/breeds), or leave breed out"})
		}
	}
	r.OriginalIdentifier = w.OriginalIdentifier
	if o := w.Animal.OriginalIdentifier; o != nil && *o != "" {
		if r.OriginalIdentifier != "" && r.OriginalIdentifier != *o {
			p = append(p, livestock.FieldError{Code: livestock.CodeBadFormat, Source: "/OriginalIdentifier", Value: r.OriginalIdentifier,
				Message: "OriginalIdentifier and animal.originalIdentifier are one identifier named two ways, and disagree"})
		}
		r.OriginalIdentifier = *o // the live name; the top-level one is its alias
	}
	if ip := w.ImportParents; ip != nil {
		r.ImportParentsGiven = true
		for _, x := range []*ref{ip.Sire, ip.GeneticDam, ip.BirthDam} {
			if x != nil && x.Identifier != "" { // an empty identifier is none, as for registration's parents
				r.ImportParents = append(r.ImportParents, x.Identifier)
			}
		}
	}
	// Every date of a registration is on or after the birth (V035), but
	// each is held to livestock.EarliestDate here, as a movement's are,
	// so that a date of 0000-01-01 is a format error at its own field.
	date := func(at, s string, required bool) livestock.Date {
		if s == "" && !required {
			return livestock.Date{}
		}
		d, err := livestock.ParseRecordDate(s)
		if err != nil {
			p.add(at, err)
		}
		return d
	}
	if b := w.Birth; b != nil {
		// The live service needs the year; the date may be left out when
		// the year is given (the interface document's form gives the date).
		if b.Date == "" && b.Year == 0 {
			p = append(p, livestock.FieldError{Code: livestock.CodeMissing, Source: "/birth/date", Message: "a birth gives its date, or at least its year"})
		}
		r.BirthDate = date("/birth/date", b.Date, false)
		r.BirthYear, r.BirthMark = b.Year, b.Mark
		// The live birth requires its three flags: one left out is refused
		// rather than recorded as false, which the keeper never said.
		for _, f := range []struct {
			name string
			set  bool
		}{{"assistedBirthFlag", b.AssistedBirthFlag != nil}, {"multipleBirthsFlag", b.MultipleBirthsFlag != nil || b.MultipleBirthFlag != nil},
			{"embryoTransferFlag", b.EmbryoTransferFlag != nil}} {
			if !f.set {
				p = append(p, livestock.FieldError{Code: livestock.CodeMissing, Source: "/birth/" + f.name, Message: "a birth says whether it was so (true or false)"})
			}
		}
		if one, other := b.MultipleBirthsFlag, b.MultipleBirthFlag; one != nil && other != nil && *one != *other {
			p = append(p, livestock.FieldError{Code: livestock.CodeBadFormat, Source: "/birth/multipleBirthFlag",
				Message: "multipleBirthFlag and multipleBirthsFlag are one flag spelled two ways, and disagree"})
		}
		if b.Site != nil {
			r.BirthSite = sites("/birth/site", b.Site, &p)
			oneHolding("/birth/site", b.Site, livestock.CodeBadFormat, &p)
		}
	}
	if _, limited := livestock.StatutoryDays[r.Species]; limited && (w.Birth == nil || w.Birth.Date == "") && w.Registration.Category == livestock.CategoryBirth {
		p = append(p, livestock.FieldError{Code: livestock.CodeMissing, Source: "/birth/date",
			Message: "a birth registration of " + r.Species.RegistrationName() + " gives the date of birth: the statutory limit is counted from it"})
	}
	if d := w.Death; d != nil && d.empty() {
		w.Death = nil // an empty death reports none, as null does
	}
	if w.Death != nil {
		if w.Death.Date == "" {
			p = append(p, livestock.FieldError{Code: livestock.CodeMissing, Source: "/death/date", Message: "a death is reported with its date"})
		} else {
			r.DeathDate = date("/death/date", w.Death.Date, true)
		}
		timestamp("/death/createdDateTime", w.Death.CreatedDateTime, &p)
		timestamp("/death/updatedDateTime", w.Death.UpdatedDateTime, &p)
		if w.Death.Site != nil {
			r.DeathSites = sites("/death/site", w.Death.Site, &p)
			oneHolding("/death/site", w.Death.Site, livestock.CodeBadFormat, &p)
		}
		if c := w.Death.CarcassCollectionSite; c != nil {
			r.CarcassSites = sites("/death/carcassCollectionSite", c, &p)
			oneHolding("/death/carcassCollectionSite", c, livestock.CodeBadFormat, &p)
		}
	}
	reg := &w.Registration
	r.RegistrationDate = date("/registration/date", reg.Date, true)
	r.IdentificationDate = date("/registration/identificationDate", reg.IdentificationDate, false)
	r.Category = reg.Category
	sites("/registration/site", &reg.Site, &p) // defaults each type, writes holdings in normal form
	ids := reg.Site.Identifiers
	var first error
	if len(ids) > 0 {
		r.RegistrationSite, first = livestock.ParseCPH(ids[0].Identifier)
	}
	switch {
	case len(ids) == 0:
	case ids[0].Type != livestock.SiteHolding:
		p = append(p, livestock.FieldError{Code: livestock.CodeRegistrationHolder, Source: "/registration/site/identifiers/0/type",
			Value: ids[0].Type, Message: "an animal is registered at a holding: the type must be holdingNumber"})
	case first != nil: // reported by sites
	default:
		oneHolding("/registration/site", &reg.Site, livestock.CodeRegistrationHolder, &p)
	}
	r.BirthDam = parent(r.Species, reg.BirthDam, "/registration/birthDam/identifier", r.Category, &p)
	r.GeneticDam = parent(r.Species, reg.GeneticDam, "/registration/geneticDam/identifier", r.Category, &p)
	r.Sire = parent(r.Species, reg.Sire, "/registration/sire/identifier", r.Category, &p)
	if len(p) > 0 {
		return r, w, livestock.Invalid("the body breaks the interface's formats", p...)
	}
	return r, w, nil
}

// oneHolding refuses, with code, a site whose identifiers name two
// different holdings. A site is one place: an FSA, port or LIP number may
// stand beside its holding number, but a second holding would be stored
// with the animal and never checked (a birth site naming another keeper's
// holding first, then the registration holding, passed V039). The
// registration site's second holding is V047, a birth or death site's
// S008.
func oneHolding(at string, s *site, code livestock.Code, p *problems) {
	first := ""
	for i, id := range s.Identifiers {
		if id.Type != livestock.SiteHolding {
			continue
		}
		c, err := livestock.ParseCPH(id.Identifier)
		switch {
		case err != nil: // reported by sites
		case first == "":
			first = c.String()
		case c.String() != first:
			*p = append(*p, livestock.FieldError{Code: code, Source: fmt.Sprintf("%s/identifiers/%d/identifier", at, i),
				Value: id.Identifier, Message: "names a second holding: a site is one place, whose holding number is " + first})
		}
	}
}

// timestamp checks a date-time the body gives, if it gives one, by the
// interfaces' one parser (livestock.ParseDateTime). The document's
// validator checks only its shape: a 30 February or an offset of +25:00
// would have been stored and shown as sent.
func timestamp(at, s string, p *problems) {
	if s == "" {
		return
	}
	if _, err := livestock.ParseDateTime(s); err != nil {
		p.add(at, err)
	}
}

// sites reads a site's identifiers; a holding number must be a CPH, and
// is written in its normal form.
func sites(at string, s *site, p *problems) []livestock.SiteID {
	var out []livestock.SiteID
	for i := range s.Identifiers {
		id := &s.Identifiers[i]
		if id.Type == "" {
			id.Type = livestock.SiteHolding
		}
		if strings.TrimSpace(id.Identifier) == "" { // spaces are no more an identifier than "" is
			*p = append(*p, livestock.FieldError{Code: livestock.CodeBadLength, Source: fmt.Sprintf("%s/identifiers/%d/identifier", at, i),
				Value: id.Identifier, Message: "must not be empty"})
			continue
		}
		if id.Type == livestock.SiteHolding {
			cph, err := livestock.ParseCPH(id.Identifier)
			if err != nil {
				p.add(fmt.Sprintf("%s/identifiers/%d/identifier", at, i), err)
				continue
			}
			id.Identifier = cph.String()
		}
		out = append(out, livestock.SiteID{Identifier: strings.TrimSpace(id.Identifier), Type: id.Type})
	}
	return out
}

// parent reads a parent's identifier. A birth registration's parents are
// on the system, so they must be well formed; an import's may be anything,
// but one that reads as a tag of the species is written as the registry
// writes it, so that the parent rules find the animal however it was
// spaced.
func parent(sp livestock.Species, x *ref, at, category string, p *problems) string {
	if x == nil || x.Identifier == "" {
		return ""
	}
	if sp.IsZero() {
		return x.Identifier
	}
	t, err := livestock.ParseTag(sp, x.Identifier)
	if err != nil {
		if category == livestock.CategoryBirth {
			p.add(at, err)
		}
		return x.Identifier
	}
	x.Identifier = t.String()
	return t.String()
}

// empty reports whether a death reports nothing (the read-only members
// dropped): no date, reason, place or flag.
func (d *death) empty() bool {
	return d.Date == "" && d.Reason == nil && d.Site == nil && d.CarcassCollectionSite == nil &&
		d.TSETestRequiredFlag == nil && d.CreatedDateTime == "" && d.UpdatedDateTime == ""
}
