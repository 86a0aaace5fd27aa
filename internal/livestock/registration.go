package livestock

// Site types of the registration interface.
const (
	SiteHolding = "holdingNumber"
	SiteFSA     = "fsaNumber"
	SitePort    = "portNumber"
	SiteLIP     = "lipNumber"
)

// SiteID is one identifier of a site: a holding number (CPH) or the
// number of an FSA-approved premises, a port or a livestock inspection
// point.
type SiteID struct {
	Identifier string // a CPH in its normal form when Type is holdingNumber
	Type       string
}

// Registration categories.
const (
	CategoryBirth  = "birthRegistration" // a calf born on the registering holding
	CategoryOther  = "registration"      // imports and other cases
	RestrictedNote = "registered after the statutory limit: no passport; it may not leave its holding"
)

// Registration is an application to register an animal, parsed: its
// identifier fits its species and every date and site is well formed.
type Registration struct {
	Tag                Tag
	Species            Species
	Name               string
	Sex                Sex
	ProductionType     string
	Breed              string // a standing-data code, or ""
	OriginalIdentifier string
	ImportParents      []string // sire, genetic dam, birth dam of an import, as given
	ImportParentsGiven bool     // the body had importParents, even with no parent in it
	BirthSite          []SiteID
	BirthDate          Date
	BirthYear          int // 0 when not given
	BirthMark          string
	DeathDate          Date // zero when alive
	DeathSites         []SiteID
	CarcassSites       []SiteID // death.carcassCollectionSite
	BirthDam           string   // identifiers as given (normalised when they parse)
	GeneticDam         string
	Sire               string
	RegistrationSite   CPH
	RegistrationDate   Date
	IdentificationDate Date // zero when not given
	Category           string
}

// StatutoryDays is how old an animal may be when its birth registration
// is received, by species (domain-notes §4); species not listed have no
// limit here.
var StatutoryDays = map[Species]int{SpeciesCattle: 27, SpeciesBuffalo: 27, SpeciesBison: 7}

// RegistrationFacts are the registry's records a registration is checked
// against, gathered by the caller inside the transaction that applies it.
type RegistrationFacts struct {
	Received   Date // the day the service received the application
	IssuedTo   *CPH // the holding of the herd the identifier was issued to; nil when never issued
	IssuedFor  Species
	Registered bool // the identifier is registered already
	BreedKnown func(species Species, code string) bool
	SiteKnown  func(SiteID) bool
	BirthDam   *AnimalRecord // nil when not registered (or not given)
	GeneticDam *AnimalRecord
	Sire       *AnimalRecord
}

// RegistrationOutcome is what a valid registration records besides the
// animal itself.
type RegistrationOutcome struct {
	Restricted bool   // no passport: it may not leave its holding
	Reason     string // why, when Restricted
	Dead       bool
}
