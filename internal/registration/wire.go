// Package registration is the animal registration interface's behaviour:
// POST /animals in synchronous mode (the rules applied at once, the answer
// final) and asynchronous mode (a durable job applies them; the caller
// polls the request status, no sooner than the retry-after time), and the
// registered animal's record. The rules are pure functions in livestock.
package registration

import "encoding/json"

// body is the registration request on the wire: the live service's Animal
// (lis-definition.json), with the interface document's names kept as
// aliases (OriginalIdentifier at the top, a death reason by name). The
// live members that are read-only (an animal's state, a site's type and
// name, the animal's current and home site, …) are read and dropped
// (dropReadOnly): a client may send back what it read.
type body struct {
	Animal struct {
		Identifier         string          `json:"identifier"`
		Species            string          `json:"species"`
		Name               string          `json:"name,omitempty"`
		Sex                string          `json:"sex"`
		ProductionType     string          `json:"productionType,omitempty"`
		Genotype           *string         `json:"genotype,omitempty"`
		OriginalIdentifier *string         `json:"originalIdentifier,omitempty"`
		State              json.RawMessage `json:"state,omitempty"`
	} `json:"animal"`
	OriginalIdentifier string `json:"OriginalIdentifier,omitempty"`
	Breed              *struct {
		Code       *string         `json:"code,omitempty"`
		Name       json.RawMessage `json:"name,omitempty"`
		CrossBreed json.RawMessage `json:"crossBreed,omitempty"`
	} `json:"breed,omitempty"`
	ImportParents *struct {
		Sire       *ref `json:"sire,omitempty"`
		GeneticDam *ref `json:"geneticDam,omitempty"`
		BirthDam   *ref `json:"birthDam,omitempty"`
	} `json:"importParents,omitempty"`
	Birth *struct {
		Site               *site  `json:"site,omitempty"`
		Date               string `json:"date,omitempty"`
		Year               int    `json:"year,omitempty"`
		Mark               string `json:"mark,omitempty"`
		AssistedBirthFlag  *bool  `json:"assistedBirthFlag,omitempty"`
		MultipleBirthsFlag *bool  `json:"multipleBirthsFlag,omitempty"`
		// MultipleBirthFlag is the interface document's other spelling of
		// MultipleBirthsFlag: either may be sent; decode refuses the two
		// disagreeing.
		MultipleBirthFlag  *bool `json:"multipleBirthFlag,omitempty"`
		EmbryoTransferFlag *bool `json:"embryoTransferFlag,omitempty"`
	} `json:"birth,omitempty"`
	Death        *death `json:"death,omitempty"`
	Registration struct {
		BirthDam           *ref   `json:"birthDam,omitempty"`
		GeneticDam         *ref   `json:"geneticDam,omitempty"`
		Sire               *ref   `json:"sire,omitempty"`
		Site               site   `json:"site"`
		Date               string `json:"date"`
		Category           string `json:"category"`
		IdentificationDate string `json:"identificationDate,omitempty"`
	} `json:"registration"`

	// Read-only members of the live Animal.
	CurrentSite     json.RawMessage `json:"currentSite,omitempty"`
	HomeSite        json.RawMessage `json:"homeSite,omitempty"`
	BirthingHistory json.RawMessage `json:"birthingHistory,omitempty"`
	CreatedDateTime json.RawMessage `json:"createdDateTime,omitempty"`
	UpdatedDateTime json.RawMessage `json:"updatedDateTime,omitempty"`
	Assurance       json.RawMessage `json:"assurance,omitempty"`
}

type death struct {
	CarcassCollectionSite *site  `json:"carcassCollectionSite,omitempty"`
	Date                  string `json:"date,omitempty"`
	// Reason is named by its id in the death reasons list (the live form)
	// or by its name (the interface document's); with an id, the name
	// stored is the list's.
	Reason *struct {
		ID   string `json:"id,omitempty"`
		Name string `json:"name,omitempty"`
	} `json:"reason,omitempty"`
	ReceivedDate        json.RawMessage `json:"receivedDate,omitempty"` // read-only
	Site                *site           `json:"site,omitempty"`
	TSETestRequiredFlag *bool           `json:"tseTestRequiredFlag,omitempty"`
	CreatedDateTime     string          `json:"createdDateTime,omitempty"`
	UpdatedDateTime     string          `json:"updatedDateTime,omitempty"`
}

// ref is a parent. The live service sends a parent's species, name and
// sex when it is read; they are the register's, not the caller's.
type ref struct {
	Identifier string          `json:"identifier"`
	Species    json.RawMessage `json:"species,omitempty"`
	Name       json.RawMessage `json:"name,omitempty"`
	Sex        json.RawMessage `json:"sex,omitempty"`
}

// site is a site named by its identifiers. Its type (an activity such as
// a market) and name are the register's: read-only.
type site struct {
	Type        json.RawMessage `json:"type,omitempty"`
	Identifiers []siteID        `json:"identifiers"`
	Name        json.RawMessage `json:"name,omitempty"`
}

type siteID struct {
	Identifier string `json:"identifier"`
	Type       string `json:"type,omitempty"`
}

// dropReadOnly clears the read-only members, so that what is stored is
// what the caller reported.
func (w *body) dropReadOnly() {
	w.Animal.State = nil
	if w.Breed != nil {
		w.Breed.Name, w.Breed.CrossBreed = nil, nil
	}
	w.CurrentSite, w.HomeSite, w.BirthingHistory, w.CreatedDateTime, w.UpdatedDateTime, w.Assurance = nil, nil, nil, nil, nil, nil
	refs := []*ref{w.Registration.BirthDam, w.Registration.GeneticDam, w.Registration.Sire}
	if ip := w.ImportParents; ip != nil {
		refs = append(refs, ip.Sire, ip.GeneticDam, ip.BirthDam)
	}
	for _, r := range refs {
		if r != nil {
			r.Species, r.Name, r.Sex = nil, nil, nil
		}
	}
	sites := []*site{&w.Registration.Site}
	if w.Birth != nil {
		sites = append(sites, w.Birth.Site)
	}
	if d := w.Death; d != nil {
		d.ReceivedDate = nil
		sites = append(sites, d.Site, d.CarcassCollectionSite)
	}
	for _, s := range sites {
		if s != nil {
			s.Type, s.Name = nil, nil
		}
	}
}
