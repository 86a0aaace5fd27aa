package livestock

import (
	"errors"
	"fmt"
	"strings"
)

// CPH is a county/parish/holding number, written CC/PPP/HHHH. The zero
// value is "no holding"; every other value is well formed.
type CPH struct{ s string }

// ParseCPH accepts CC/PPP/HHHH, with the slashes also written %2f or %2F
// (as they arrive in URLs) or left out altogether (the 9-digit form).
func ParseCPH(s string) (CPH, error) {
	// The normal form is kept as it is: no allocation, as a store reads
	// one for every row.
	if len(s) == 11 && s[2] == '/' && s[6] == '/' && allDigits(s[0:2]) && allDigits(s[3:6]) && allDigits(s[7:11]) {
		return CPH{s}, nil
	}
	in := s
	s = strings.ReplaceAll(strings.ReplaceAll(s, "%2f", "/"), "%2F", "/")
	var digits string
	switch {
	case len(s) == 11 && s[2] == '/' && s[6] == '/':
		digits = s[0:2] + s[3:6] + s[7:11]
	case len(s) == 9:
		digits = s
	default:
		return CPH{}, formatError("CPH", in, "NN/NNN/NNNN: 2 digits county, 3 digits parish, 4 digits holding")
	}
	if !allDigits(digits) {
		return CPH{}, formatError("CPH", in, "NN/NNN/NNNN: 2 digits county, 3 digits parish, 4 digits holding")
	}
	return CPH{digits[0:2] + "/" + digits[2:5] + "/" + digits[5:9]}, nil
}

// NormalCPH reads s as ParseCPH does and writes it in its normal form,
// CC/PPP/HHHH, as a $filter on a holding compares it. Its error says only
// what a holding is, for the filter's message.
func NormalCPH(s string) (string, error) {
	c, err := ParseCPH(s)
	if err != nil {
		return "", errors.New("a holding is a CPH, NN/NNN/NNNN")
	}
	return c.String(), nil
}

// MustCPH parses s and panics if it is not a CPH. For tests and fixed data.
func MustCPH(s string) CPH {
	c, err := ParseCPH(s)
	if err != nil {
		panic(err)
	}
	return c
}

func (c CPH) String() string { return c.s }
func (c CPH) IsZero() bool   { return c.s == "" }

// Equal reports whether c and o are the same holding, as == does; it lets
// go-cmp compare records that hold a CPH.
func (c CPH) Equal(o CPH) bool { return c == o }

// Compare orders CPHs as their text, which is by county, parish and
// holding number; the zero CPH comes first.
func (c CPH) Compare(o CPH) int { return strings.Compare(c.s, o.s) }

// County is the two-digit county number.
func (c CPH) County() string {
	if c.s == "" {
		return ""
	}
	return c.s[0:2]
}

// Scottish reports whether the county is in Scotland (66 to 98).
func (c CPH) Scottish() bool {
	if c.s == "" {
		return false
	}
	n := int(c.s[0]-'0')*10 + int(c.s[1]-'0')
	return n >= 66 && n <= 98
}

func (c CPH) MarshalText() ([]byte, error) { return []byte(c.s), nil }

func (c *CPH) UnmarshalText(b []byte) error {
	v, err := ParseCPH(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// formatError is the error every identifier parser returns: KindInvalid with
// code S008, naming the format that was expected.
func formatError(what, value, rule string) *Error {
	return &Error{Kind: KindInvalid, Detail: fmt.Sprintf("%s %q is not valid", what, value), Fields: []FieldError{{
		Code:    CodeBadFormat,
		Message: fmt.Sprintf("not a valid %s: expected %s", what, rule),
		Value:   value,
	}}}
}
