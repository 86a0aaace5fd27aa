package livestock

import (
	"fmt"
	"strconv"
)

// CattleTag is a cattle ear tag in the format used since about 2000: UK, a
// 6-digit herd mark, a check digit and a 5-digit animal number, printed
// without spaces (UK123450600001). Bison and buffalo carry the same tags.
// Older formats exist that do not follow the check-digit rule; they are not
// accepted. The zero value is "no tag".
type CattleTag struct{ s string }

const cattleTagRule = "UK, a 6-digit herd mark, a check digit and a 5-digit animal number, e.g. UK123450600001"

// ParseCattleTag accepts UK, the herd mark, the check digit and the animal
// number, with at most one space between groups (UK 123450 6 00001), and
// checks the check digit.
func ParseCattleTag(s string) (CattleTag, error) {
	p := scanner{s: s}
	ok := p.lit("UK")
	p.space()
	herd, ok1 := p.digits(6)
	p.space()
	check, ok2 := p.digits(1)
	p.space()
	animal, ok3 := p.digits(5)
	if !ok || !ok1 || !ok2 || !ok3 || !p.done() {
		return CattleTag{}, formatError("cattle ear tag", s, cattleTagRule)
	}
	want := cattleCheckDigit(atoi(herd), atoi(animal))
	if got := atoi(check); got != want {
		return CattleTag{}, ruleError(CodeBadFormat, "cattle ear tag", s,
			fmt.Sprintf("check digit should be %d, not %d", want, got))
	}
	return CattleTag{"UK" + herd + check + animal}, nil
}

// NewCattleTag makes the tag for an animal of a herd, working out the check
// digit: herdMark is 6 digits, animalNumber 0 to 99999.
func NewCattleTag(herdMark string, animalNumber int) (CattleTag, error) {
	if len(herdMark) != 6 || !allDigits(herdMark) {
		return CattleTag{}, formatError("herd mark", herdMark, "6 digits")
	}
	if animalNumber < 0 || animalNumber > 99999 {
		return CattleTag{}, formatError("animal number", strconv.Itoa(animalNumber), "a number from 0 to 99999")
	}
	check := cattleCheckDigit(atoi(herdMark), animalNumber)
	return CattleTag{fmt.Sprintf("UK%s%d%05d", herdMark, check, animalNumber)}, nil
}

// MustCattleTag is NewCattleTag for a herd mark and number known to be
// valid, as in fixtures, tests and load generators that issue tags by
// counting: it panics on any other, as MustCPH does.
func MustCattleTag(herdMark string, animalNumber int) CattleTag {
	c, err := NewCattleTag(herdMark, animalNumber)
	if err != nil {
		panic(err)
	}
	return c
}

// cattleCheckDigit is (N mod 7) + 1 for N = herd mark × 100000 + animal
// number.
func cattleCheckDigit(herd, animal int) int {
	return (herd*100000+animal)%7 + 1
}

func (c CattleTag) String() string { return c.s }
func (c CattleTag) IsZero() bool   { return c.s == "" }

// Tag is the tag as a cattle Tag, for code that handles tags of several
// species alike.
func (c CattleTag) Tag() Tag { return Tag{SpeciesCattle, c.s} }

// HerdMark is the 6-digit herd mark, or the zero mark for the zero tag.
func (c CattleTag) HerdMark() FlockMark { return flockMarkAt(c.s, 2) }

// CheckDigit is the check digit, 1 to 7 (0 for the zero tag).
func (c CattleTag) CheckDigit() int {
	if c.s == "" {
		return 0
	}
	return atoi(c.s[8:9])
}

// AnimalNumber is the 5-digit animal number as a number.
func (c CattleTag) AnimalNumber() int {
	if c.s == "" {
		return 0
	}
	return atoi(c.s[9:14])
}

func (c CattleTag) MarshalText() ([]byte, error) { return []byte(c.s), nil }

func (c *CattleTag) UnmarshalText(b []byte) error {
	v, err := ParseCattleTag(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
