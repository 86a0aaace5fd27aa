// Package registration is the animal registration interface's behaviour:
// POST /animals in synchronous mode (the rules applied at once, the answer
// final) and asynchronous mode (a durable job applies them; the caller
// polls the request status, no sooner than the retry-after time), and the
// registered animal's record. The rules are pure functions in livestock.
package registration

// body is the registration request on the wire (animal-registration.md).
type body struct {
	Animal struct {
		Identifier     string `json:"identifier"`
		Species        string `json:"species"`
		Name           string `json:"name,omitempty"`
		Sex            string `json:"sex"`
		ProductionType string `json:"productionType,omitempty"`
	} `json:"animal"`
	OriginalIdentifier string `json:"OriginalIdentifier,omitempty"`
	Breed              *struct {
		Code string `json:"code"`
	} `json:"breed,omitempty"`
	ImportParents *struct {
		Sire       *ref `json:"sire,omitempty"`
		GeneticDam *ref `json:"geneticDam,omitempty"`
		BirthDam   *ref `json:"birthDam,omitempty"`
	} `json:"importParents,omitempty"`
	Birth struct {
		Site               *site  `json:"site,omitempty"`
		Date               string `json:"date"`
		Year               int    `json:"year,omitempty"`
		Mark               string `json:"mark,omitempty"`
		AssistedBirthFlag  *bool  `json:"assistedBirthFlag,omitempty"`
		MultipleBirthsFlag *bool  `json:"multipleBirthsFlag,omitempty"`
		EmbryoTransferFlag *bool  `json:"embryoTransferFlag,omitempty"`
	} `json:"birth"`
	Death *struct {
		CarcassCollectionSite *site  `json:"carcassCollectionSite,omitempty"`
		Date                  string `json:"date,omitempty"`
		Reason                *struct {
			Name string `json:"name"`
		} `json:"reason,omitempty"`
		Site                *site  `json:"site,omitempty"`
		TSETestRequiredFlag *bool  `json:"tseTestRequiredFlag,omitempty"`
		CreatedDateTime     string `json:"createdDateTime,omitempty"`
		UpdatedDateTime     string `json:"updatedDateTime,omitempty"`
	} `json:"death,omitempty"`
	Registration struct {
		BirthDam           *ref   `json:"birthDam,omitempty"`
		GeneticDam         *ref   `json:"geneticDam,omitempty"`
		Sire               *ref   `json:"sire,omitempty"`
		Site               site   `json:"site"`
		Date               string `json:"date"`
		Category           string `json:"category"`
		IdentificationDate string `json:"identificationDate,omitempty"`
	} `json:"registration"`
}

type ref struct {
	Identifier string `json:"identifier"`
}

type site struct {
	Identifiers []siteID `json:"identifiers"`
}

type siteID struct {
	Identifier string `json:"identifier"`
	Type       string `json:"type,omitempty"`
}
