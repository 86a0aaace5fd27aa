package registration

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Record is the answer to GET /animals/{identifier}: the live service's
// Animal (animal, breed, currentSite, importParents, birth, death,
// registration, createdDateTime), and beside it Drover's flat members
// (identifier, holding, onSince, movementRestricted, …), which its clients
// read. Details the register does not hold are absent.
type Record struct {
	Animal          recordAnimal         `json:"animal"`
	Breed           *recordBreed         `json:"breed,omitempty"`
	CurrentSite     recordSite           `json:"currentSite"`
	ImportParents   map[string]parentRef `json:"importParents,omitempty"`
	Birth           *recordBirth         `json:"birth,omitempty"`
	Death           *recordDeath         `json:"death,omitempty"` // absent while alive: the live schema does not let it be null
	Registration    *recordRegistation   `json:"registration,omitempty"`
	CreatedDateTime string               `json:"createdDateTime,omitempty"`

	Identifier         string  `json:"identifier"`
	Species            string  `json:"species"`
	Sex                string  `json:"sex"`
	State              string  `json:"state"`
	Name               string  `json:"name,omitempty"`
	ProductionType     string  `json:"productionType,omitempty"`
	Holding            string  `json:"holding"`
	OnSince            string  `json:"onSince"`
	MovementRestricted bool    `json:"movementRestricted"`
	RestrictionReason  *string `json:"restrictionReason"`
	OriginalIdentifier string  `json:"OriginalIdentifier,omitempty"`
	ReceivedDate       string  `json:"receivedDate,omitempty"`
	RegisteredBy       string  `json:"registeredBy,omitempty"`
}

type recordAnimal struct {
	Identifier         string `json:"identifier"`
	Species            string `json:"species"`
	Name               string `json:"name,omitempty"`
	Sex                string `json:"sex"`
	Genotype           string `json:"genotype,omitempty"`
	OriginalIdentifier string `json:"originalIdentifier,omitempty"`
	ProductionType     string `json:"productionType,omitempty"`
	State              string `json:"state"`
}

type recordBreed struct {
	Code       string `json:"code"`
	Name       string `json:"name,omitempty"`
	CrossBreed bool   `json:"crossBreed"`
}

// recordSite is a live site: its identifiers, and its type, the activity
// of the premises (a holding's type: producer, saleYard, abattoir, …).
type recordSite struct {
	Type        siteType `json:"type"`
	Identifiers []siteID `json:"identifiers"`
}

type siteType struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

type parentRef struct {
	Identifier string `json:"identifier"`
}

type recordBirth struct {
	Site               *recordSite `json:"site,omitempty"`
	Date               string      `json:"date,omitempty"`
	Year               int         `json:"year,omitempty"`
	Mark               string      `json:"mark,omitempty"`
	AssistedBirthFlag  bool        `json:"assistedBirthFlag"`
	MultipleBirthsFlag bool        `json:"multipleBirthsFlag"`
	EmbryoTransferFlag bool        `json:"embryoTransferFlag"`
}

type recordDeath struct {
	CarcassCollectionSite *recordSite `json:"carcassCollectionSite,omitempty"`
	Date                  string      `json:"date,omitempty"`
	Reason                *struct {
		ID   string `json:"id,omitempty"`
		Name string `json:"name"`
	} `json:"reason,omitempty"`
	Site                *recordSite `json:"site,omitempty"`
	TSETestRequiredFlag *bool       `json:"tseTestRequiredFlag,omitempty"`
	CreatedDateTime     string      `json:"createdDateTime,omitempty"`
	UpdatedDateTime     string      `json:"updatedDateTime,omitempty"`
}

type recordRegistation struct {
	BirthDam           *parentRef `json:"birthDam,omitempty"`
	GeneticDam         *parentRef `json:"geneticDam,omitempty"`
	Sire               *parentRef `json:"sire,omitempty"`
	Site               recordSite `json:"site"`
	Date               string     `json:"date"`
	Category           string     `json:"category"`
	IdentificationDate string     `json:"identificationDate,omitempty"`
}

// siteTypes describe the holding types, and the kinds of site that are not
// holdings, as a live site's type.
var siteTypes = map[string]string{
	string(livestock.HoldingProducer): "Agricultural holding", string(livestock.HoldingSaleYard): "Market (sale yard)",
	string(livestock.HoldingAbattoir): "Slaughterhouse", string(livestock.HoldingShowground): "Showground",
	string(livestock.HoldingAssemblyCentre): "Assembly centre", string(livestock.HoldingCollectionCentre): "Collection centre",
	string(livestock.HoldingCommonLand): "Common land", livestock.SiteFSA: "Premises approved by the Food Standards Agency",
	livestock.SitePort: "Port or border control post", livestock.SiteLIP: "Livestock inspection point",
	"holding": "Holding of a type not on the register",
	"unknown": "Not known: the registration gave none",
}

// AnimalRecord is the record of a registered animal, for the keeper of
// its holding or the inspector (Animal says who may read it).
func (s *Service) AnimalRecord(ctx context.Context, u livestock.User, identifier string) (Record, error) {
	a, err := s.Animal(ctx, u, identifier)
	if err != nil {
		return Record{}, err
	}
	var w body
	_ = json.Unmarshal(a.Record, &w) // empty for animals that were never registered here
	site := func(ids []siteID) recordSite {
		typ := "holding"
		if len(ids) == 0 {
			return recordSite{Type: siteType{"unknown", siteTypes["unknown"]}, Identifiers: []siteID{}}
		}
		if ids[0].Type != livestock.SiteHolding && ids[0].Type != "" {
			typ = ids[0].Type
		} else if cph, err := livestock.ParseCPH(ids[0].Identifier); err == nil {
			if h, err := s.store.Holding(ctx, cph); err == nil {
				typ = string(h.Type)
			}
		}
		return recordSite{Type: siteType{typ, siteTypes[typ]}, Identifiers: ids}
	}
	holding := []siteID{{Identifier: a.CPH.String(), Type: livestock.SiteHolding}}
	species := a.Species.RegistrationName()
	rec := Record{
		Animal: recordAnimal{Identifier: a.Identifier.String(), Species: species, Name: a.Name, Sex: a.Sex.String(),
			OriginalIdentifier: a.OriginalIdentifier, ProductionType: a.ProductionType, State: a.State.String()},
		CurrentSite: site(holding),
		Identifier:  a.Identifier.String(), Species: species, Sex: a.Sex.String(), State: a.State.String(), Name: a.Name, ProductionType: a.ProductionType,
		Holding: a.CPH.String(), OnSince: day(a.OnSince), MovementRestricted: a.MovementRestricted,
		OriginalIdentifier: a.OriginalIdentifier, RegisteredBy: a.RegisteredBy,
	}
	if w.Animal.Genotype != nil {
		rec.Animal.Genotype = *w.Animal.Genotype
	}
	if a.RestrictionReason != "" {
		rec.RestrictionReason = &a.RestrictionReason
	}
	if !a.ReceivedDate.IsZero() {
		rec.ReceivedDate = a.ReceivedDate.UTC().Format(time.RFC3339)
		rec.CreatedDateTime = rec.ReceivedDate
	}
	if a.Breed != "" {
		name := s.breeds[species][a.Breed]
		rec.Breed = &recordBreed{Code: a.Breed, Name: name, CrossBreed: strings.Contains(strings.ToLower(name), "cross")}
	}
	if ip := w.ImportParents; ip != nil {
		rec.ImportParents = map[string]parentRef{}
		for k, p := range map[string]*ref{"sire": ip.Sire, "geneticDam": ip.GeneticDam, "birthDam": ip.BirthDam} {
			if p != nil && p.Identifier != "" { // an empty identifier is none (decode)
				rec.ImportParents[k] = parentRef{p.Identifier}
			}
		}
	}
	rec.Birth = s.birthRecord(ctx, a, w, holding, site)
	rec.Death = deathRecord(a, w, site)
	if a.Category != "" && len(w.Registration.Site.Identifiers) > 0 {
		reg := &recordRegistation{Site: site(w.Registration.Site.Identifiers), Date: day(a.RegistrationDate), Category: a.Category,
			BirthDam: parentOf(a.BirthDam), GeneticDam: parentOf(a.GeneticDam), Sire: parentOf(a.Sire)}
		if !a.IdentificationDate.IsZero() {
			reg.IdentificationDate = day(a.IdentificationDate)
		}
		rec.Registration = reg
	} else {
		rec.Registration = s.recordedRegistration(ctx, a, site)
	}
	return rec, nil
}

// birthRecord is the birth as registered. An animal that came onto the
// register by the sandbox's seed or an import was born on the holding its
// tag was issued to (the holding its flock or herd mark names, which its
// moves do not change); when the mark names none on the register, on its
// holding if it has been there since its birth. The live birth requires a
// site, so a birth whose site is not known is at a site of type unknown
// with no identifiers; a birth of which nothing is known is left out.
func (s *Service) birthRecord(ctx context.Context, a store.Animal, w body, holding []siteID, siteOf func([]siteID) recordSite) *recordBirth {
	b := &recordBirth{}
	if !a.BirthDate.IsZero() {
		b.Date, b.Year = day(a.BirthDate), a.BirthDate.Year()
	}
	if wb := w.Birth; wb != nil {
		b.Year, b.Mark = max(b.Year, wb.Year), wb.Mark
		flag := func(f *bool) bool { return f != nil && *f } // not reported reads as not so
		b.AssistedBirthFlag, b.EmbryoTransferFlag = flag(wb.AssistedBirthFlag), flag(wb.EmbryoTransferFlag)
		// Either spelling was sent; the live Animal, a closed object, has this one.
		b.MultipleBirthsFlag = flag(wb.MultipleBirthsFlag) || flag(wb.MultipleBirthFlag)
		var ids []siteID
		if wb.Site != nil {
			ids = wb.Site.Identifiers
		}
		bs := siteOf(ids)
		b.Site = &bs
	} else if a.Record == nil && !a.BirthDate.IsZero() {
		var ids []siteID
		if cph := s.issuedTo(ctx, a); !cph.IsZero() {
			ids = []siteID{{Identifier: cph.String(), Type: livestock.SiteHolding}}
		} else if a.OnSince.Equal(a.BirthDate) {
			ids = holding
		}
		bs := siteOf(ids)
		b.Site = &bs
	}
	if b.Site == nil {
		return nil
	}
	return b
}

func deathRecord(a store.Animal, w body, siteOf func([]siteID) recordSite) *recordDeath {
	if a.DeathDate.IsZero() {
		return nil
	}
	d := &recordDeath{Date: day(a.DeathDate)}
	wd := w.Death
	if wd == nil {
		return d
	}
	d.TSETestRequiredFlag, d.CreatedDateTime, d.UpdatedDateTime = wd.TSETestRequiredFlag, wd.CreatedDateTime, wd.UpdatedDateTime
	if wd.Reason != nil && wd.Reason.Name != "" {
		d.Reason = &struct {
			ID   string `json:"id,omitempty"`
			Name string `json:"name"`
		}{wd.Reason.ID, wd.Reason.Name}
	}
	for _, x := range []struct {
		from *site
		to   **recordSite
	}{{wd.Site, &d.Site}, {wd.CarcassCollectionSite, &d.CarcassCollectionSite}} {
		if x.from != nil {
			rs := siteOf(x.from.Identifiers)
			*x.to = &rs
		}
	}
	return d
}

func parentOf(identifier string) *parentRef {
	if identifier == "" {
		return nil
	}
	return &parentRef{identifier}
}

func day(t time.Time) string { return t.Format(time.DateOnly) }
