package livestock

// FlockMark is the 6-digit mark issued to a holding for a flock of sheep or
// goats or a herd of cattle or deer. Every tag of the flock or herd carries
// it (UK0130181 00001, UK130181 for a batch, UK1301815…), which is how the
// register finds the holding a tag was issued to. The zero value is "no
// mark".
type FlockMark struct{ s string }

const flockMarkRule = "6 digits, e.g. 130181"

// ParseFlockMark reads a mark of exactly 6 digits.
func ParseFlockMark(s string) (FlockMark, error) {
	if len(s) != 6 || !allDigits(s) {
		return FlockMark{}, formatError("flock or herd mark", s, flockMarkRule)
	}
	return FlockMark{s}, nil
}

// MustFlockMark is ParseFlockMark for a mark known to be valid, as in
// fixtures and the sandbox: it panics on any other, as MustCPH does.
func MustFlockMark(s string) FlockMark {
	m, err := ParseFlockMark(s)
	if err != nil {
		panic(err)
	}
	return m
}

func (m FlockMark) String() string { return m.s }
func (m FlockMark) IsZero() bool   { return m.s == "" }

// Equal reports whether m and o are the same mark, as == does; go-cmp uses
// it to compare the unexported field.
func (m FlockMark) Equal(o FlockMark) bool { return m == o }
