package livestock

import (
	"strconv"
	"strings"
)

// BatchNumber identifies a batch of sheep or goats: UK and a 6-digit flock
// mark (UK123456, the same as a slaughter tag), or the reserved value
// unknown, accepted in any letter case and printed in lower case. The zero
// value is "no batch number".
type BatchNumber struct{ s string }

const (
	batchUnknown    = "unknown"
	batchNumberRule = "UK followed by 6 digits (e.g. UK123456), or unknown"
	batchRule       = "<BatchNumber> x <AnimalCount> [<I.D. Mark> - <StockType>], e.g. UK123456 x 10 or UK123456 x 10 UK654321 - Ewes"
)

func ParseBatchNumber(s string) (BatchNumber, error) {
	if strings.EqualFold(s, batchUnknown) {
		return BatchNumber{batchUnknown}, nil
	}
	if len(s) != 8 || s[:2] != "UK" || !allDigits(s[2:]) {
		return BatchNumber{}, formatError("batch number", s, batchNumberRule)
	}
	return BatchNumber{s}, nil
}

func (n BatchNumber) String() string { return n.s }
func (n BatchNumber) IsZero() bool   { return n.s == "" }

// Equal reports whether n and o are the same batch number, as == does;
// go-cmp uses it to compare the unexported field.
func (n BatchNumber) Equal(o BatchNumber) bool { return n == o }

// Mark is the flock mark the number carries (123456 of UK123456), or the
// zero mark for unknown and for the zero value.
func (n BatchNumber) Mark() FlockMark {
	if n.IsUnknown() {
		return FlockMark{}
	}
	return flockMarkAt(n.s, 2)
}

// IsUnknown reports whether the number is the reserved value unknown.
func (n BatchNumber) IsUnknown() bool { return n.s == batchUnknown }

func (n BatchNumber) MarshalText() ([]byte, error) { return []byte(n.s), nil }

func (n *BatchNumber) UnmarshalText(b []byte) error {
	v, err := ParseBatchNumber(string(b))
	if err != nil {
		return err
	}
	*n = v
	return nil
}

// Batch is a whole batch expression: a batch number, the number of animals,
// and optionally an identification mark and a stock type, written
// <BatchNumber> x <AnimalCount> [<I.D. Mark> - <StockType>]. The mark and the
// stock type come together or not at all (the brackets of the format hold
// both); each is free text that prints as itself, with no white space at
// either end, and the mark cannot contain " - ". The count is at least 1.
// The x may be written X; it is printed x, and a count's leading zeros are
// dropped. The zero value is "no batch".
type Batch struct {
	number          BatchNumber
	count           int
	mark, stockType string
}

func ParseBatch(s string) (Batch, error) {
	fail := formatError("batch", s, batchRule)
	head, rest, _ := strings.Cut(s, " ")
	rest, ok := strings.CutPrefix(rest, "x ")
	if !ok {
		rest, ok = strings.CutPrefix(rest, "X ")
	}
	if !ok {
		return Batch{}, fail
	}
	number, err := ParseBatchNumber(head)
	if err != nil {
		return Batch{}, err
	}
	count, tail, hasTail := strings.Cut(rest, " ")
	if len(count) == 0 || len(count) > 9 || !allDigits(count) {
		return Batch{}, fail
	}
	b := Batch{number: number, count: atoi(count)}
	if b.count < 1 {
		return Batch{}, ruleError(CodeBadFormat, "batch", s, "the animal count must be at least 1")
	}
	if hasTail {
		var ok bool
		b.mark, b.stockType, ok = strings.Cut(tail, " - ")
		if !ok || !graphicText(b.mark) || !graphicText(b.stockType) {
			return Batch{}, fail
		}
	}
	return b, nil
}

func (b Batch) String() string {
	if b.IsZero() {
		return ""
	}
	s := b.number.s + " x " + strconv.Itoa(b.count)
	if b.mark != "" {
		s += " " + b.mark + " - " + b.stockType
	}
	return s
}

func (b Batch) IsZero() bool                 { return b.number.IsZero() }
func (b Batch) Number() BatchNumber          { return b.number }
func (b Batch) Count() int                   { return b.count }
func (b Batch) Mark() string                 { return b.mark }
func (b Batch) StockType() string            { return b.stockType }
func (b Batch) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

func (b *Batch) UnmarshalText(t []byte) error {
	v, err := ParseBatch(string(t))
	if err != nil {
		return err
	}
	*b = v
	return nil
}
