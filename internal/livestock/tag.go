package livestock

// Tag is an ear tag number of any species that has one, in its printed form:
// a sheep or goat tag as UK0130181 00001, a cattle (bison, buffalo) tag as
// UK123450600001. It is for code that handles tags of several species
// alike, such as the devices of a movement; code that knows the species uses
// SheepTag, GoatTag or CattleTag. The zero value is "no tag".
type Tag struct {
	species Species
	s       string
}

// ParseTag reads s by the rules of the species' tags: SheepTag for sheep,
// GoatTag for goats, CattleTag for cattle, bison and buffalo. Deer have no
// ear tag format, so every deer tag is refused.
func ParseTag(species Species, s string) (Tag, error) {
	var (
		printed string
		err     error
	)
	switch {
	case species == SpeciesSheep:
		var t SheepTag
		t, err = ParseSheepTag(s)
		printed = t.s
	case species == SpeciesGoats:
		var t GoatTag
		t, err = ParseGoatTag(s)
		printed = t.s
	case species.Bovine():
		var t CattleTag
		t, err = ParseCattleTag(s)
		printed = t.s
	case species.IsZero():
		err = ruleError(CodeBadFormat, "ear tag", s, "the species must be known to read a tag")
	default:
		err = ruleError(CodeBadFormat, "ear tag", s, "there is no ear tag format for "+species.RegistrationName())
	}
	if err != nil {
		return Tag{}, err
	}
	return Tag{species, printed}, nil
}

// MustTag is ParseTag for a tag known to be valid: it panics on any other.
// For tests and fixed data, as MustCPH.
func MustTag(species Species, s string) Tag {
	t, err := ParseTag(species, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Equal reports whether t and u are the same tag of the same species, as
// == does; go-cmp uses it to compare the unexported fields.
func (t Tag) Equal(u Tag) bool { return t == u }

func (t Tag) String() string   { return t.s }
func (t Tag) IsZero() bool     { return t.s == "" }
func (t Tag) Species() Species { return t.species }

// RFID is the electronic identifier of a sheep or goat tag; ok is false for
// cattle, whose tag numbers do not map onto a 38-bit national id.
func (t Tag) RFID() (RFID, bool) {
	if t.species != SpeciesSheep && t.species != SpeciesGoats {
		return RFID{}, false
	}
	return flockRFID(t.s), true
}

// Mark is the flock mark of a sheep or goat tag, the herd mark of a
// cattle tag: the 6 digits that name the flock or herd it was issued to.
func (t Tag) Mark() FlockMark {
	switch {
	case t.species == SpeciesSheep:
		return SheepTag{t.s}.FlockMark()
	case t.species == SpeciesGoats:
		return GoatTag{t.s}.FlockMark()
	case t.species.Bovine():
		return CattleTag{t.s}.HerdMark()
	}
	return FlockMark{}
}

func (t Tag) MarshalText() ([]byte, error) { return []byte(t.s), nil }
