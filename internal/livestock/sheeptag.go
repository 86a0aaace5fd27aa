package livestock

// SheepTag is a sheep's ear tag number: UK, the flock number (0 or 1, then the
// 6-digit flock mark) and the 5-digit individual number. It is printed with
// one space before the individual number: UK0130181 00001. The zero value is
// "no tag".
type SheepTag struct{ s string }

const sheepTagRule = "UK, then 0 or 1, then a 6-digit flock mark, an optional space, then a 5-digit individual number, e.g. UK0130181 00001"

// ParseSheepTag accepts the interface document's form: UK, 0 or 1, 6 digits,
// an optional space, 5 digits.
func ParseSheepTag(s string) (SheepTag, error) {
	flock, ind, ok := parseFlockTag(s, false)
	if !ok {
		return SheepTag{}, formatError("sheep tag number", s, sheepTagRule)
	}
	return SheepTag{"UK" + flock + " " + ind}, nil
}

// parseFlockTag reads UK, a flock (or herd) number, an optional space and a
// 5-digit individual number, and returns the 7-digit flock number and the
// individual number. The flock number is 0 or 1 then 6 digits; when six is
// set a bare 6-digit number is also taken, and given the prefix 0. Without
// the space the digits are told apart by their count (12 or 11).
func parseFlockTag(s string, six bool) (flock, individual string, ok bool) {
	p := scanner{s: s}
	if !p.lit("UK") {
		return "", "", false
	}
	a := p.run()
	switch {
	case p.lit(" "):
		individual, flock = p.run(), a
	case len(a) == 12 || len(a) == 11:
		flock, individual = a[:len(a)-5], a[len(a)-5:]
	default:
		return "", "", false
	}
	if !p.done() || len(individual) != 5 {
		return "", "", false
	}
	switch {
	case len(flock) == 7 && (flock[0] == '0' || flock[0] == '1'):
	case len(flock) == 6 && six:
		flock = "0" + flock
	default:
		return "", "", false
	}
	return flock, individual, true
}

func (t SheepTag) String() string { return t.s }
func (t SheepTag) IsZero() bool   { return t.s == "" }

// Prefix is the digit before the flock mark, "0" or "1".
func (t SheepTag) Prefix() string { return flockPart(t.s, 2, 3) }

// FlockMark is the 6-digit flock mark.
func (t SheepTag) FlockMark() FlockMark { return flockMarkAt(t.s, 3) }

// FlockNumber is the prefix and the flock mark, 7 digits.
func (t SheepTag) FlockNumber() string { return flockPart(t.s, 2, 9) }

// Individual is the 5-digit individual number as a number.
func (t SheepTag) Individual() int { return atoi(flockPart(t.s, 10, 15)) }

// RFID is the electronic identifier the tag's number stands for: country 826
// and the 12-digit national id made of the flock and individual numbers.
func (t SheepTag) RFID() RFID { return flockRFID(t.s) }

func (t SheepTag) MarshalText() ([]byte, error) { return []byte(t.s), nil }

func (t *SheepTag) UnmarshalText(b []byte) error {
	v, err := ParseSheepTag(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// flockPart slices a printed flock tag (UK0130181 00001), or gives "" for the
// zero tag.
func flockPart(s string, i, j int) string {
	if s == "" {
		return ""
	}
	return s[i:j]
}

// flockMarkAt is the mark at s[i:i+6] of a printed tag or batch number,
// which its parser checked, or the zero mark for the zero value.
func flockMarkAt(s string, i int) FlockMark { return FlockMark{flockPart(s, i, i+6)} }

// flockRFID converts a printed flock tag to its RFID. A flock number starts
// with 0 or 1, so the national id is below 2×10¹¹ and always fits 38 bits.
func flockRFID(s string) RFID {
	if s == "" {
		return RFID{}
	}
	return newRFID(ukCountry, uint64(atoi(s[2:9]+s[10:15])))
}
