package livestock

// GoatTag is a goat's ear tag number. The interface document writes it UK, a
// 6-digit herd mark, an optional space and a 5-digit individual number; the
// live service also uses the sheep form with a 0 or 1 before the herd mark
// (UK0130183 00001). Both are printed in the 7-digit form, a bare 6-digit
// herd mark taking the prefix 0, because that is the number the 12-digit
// RFID national id carries: UK130183 00001 and UK0130183 00001 are the same
// tag. The zero value is "no tag".
type GoatTag struct{ s string }

const goatTagRule = "UK, then a 6-digit herd mark (optionally after 0 or 1), an optional space, then a 5-digit individual number, e.g. UK130183 00001 or UK0130183 00001"

// ParseGoatTag accepts both the 6-digit and the 7-digit forms.
func ParseGoatTag(s string) (GoatTag, error) {
	flock, ind, ok := parseFlockTag(s, true)
	if !ok {
		return GoatTag{}, formatError("goat tag number", s, goatTagRule)
	}
	return GoatTag{"UK" + flock + " " + ind}, nil
}

func (t GoatTag) String() string { return t.s }
func (t GoatTag) IsZero() bool   { return t.s == "" }

// Prefix is the digit before the herd mark, "0" or "1" ("0" when the tag was
// written without one).
func (t GoatTag) Prefix() string { return flockPart(t.s, 2, 3) }

// FlockMark is the 6-digit herd mark (the name matches SheepTag's).
func (t GoatTag) FlockMark() FlockMark { return flockMarkAt(t.s, 3) }

// FlockNumber is the prefix and the herd mark, 7 digits.
func (t GoatTag) FlockNumber() string { return flockPart(t.s, 2, 9) }

// Individual is the 5-digit individual number as a number.
func (t GoatTag) Individual() int { return atoi(flockPart(t.s, 10, 15)) }

// RFID is the electronic identifier the tag's number stands for: country 826
// and the 12-digit national id made of the herd and individual numbers.
func (t GoatTag) RFID() RFID { return flockRFID(t.s) }

func (t GoatTag) MarshalText() ([]byte, error) { return []byte(t.s), nil }

func (t *GoatTag) UnmarshalText(b []byte) error {
	v, err := ParseGoatTag(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
