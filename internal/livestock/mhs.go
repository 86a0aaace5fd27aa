package livestock

// MHS is a 4-digit number, usually an abattoir's; it may stand in for a CPH
// on a move to an abattoir. The zero value is "no MHS".
type MHS struct{ s string }

func ParseMHS(s string) (MHS, error) {
	if len(s) != 4 || !allDigits(s) {
		return MHS{}, formatError("MHS", s, "a 4-digit number")
	}
	return MHS{s}, nil
}

func (m MHS) String() string { return m.s }
func (m MHS) IsZero() bool   { return m.s == "" }

func (m MHS) MarshalText() ([]byte, error) { return []byte(m.s), nil }

func (m *MHS) UnmarshalText(b []byte) error {
	v, err := ParseMHS(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
