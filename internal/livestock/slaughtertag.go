package livestock

// SlaughterTag is the tag of a sheep or goat going straight to slaughter. It
// carries only the flock (or herd) mark: UK 123456.
//
// It is printed UK123456, with no space and no 0/1 prefix: that is exactly
// the form of a sheep or goat batch number, which is what a slaughter tag
// identifies when animals are moved as a batch. Input may put a space after
// UK and may carry the 0 or 1 of the flock number (UK0123456); the prefix is
// dropped because the tag itself does not carry it, so UK 123456, UK123456
// and UK0123456 are the same SlaughterTag. The zero value is "no tag".
type SlaughterTag struct{ s string }

const slaughterTagRule = "UK, an optional space, then a 6-digit flock mark (optionally after 0 or 1), e.g. UK 123456"

// ParseSlaughterTag accepts UK123456, UK 123456, UK0123456 and UK1123456.
func ParseSlaughterTag(s string) (SlaughterTag, error) {
	p := scanner{s: s}
	ok := p.lit("UK")
	p.space()
	mark := p.run()
	if len(mark) == 7 && (mark[0] == '0' || mark[0] == '1') {
		mark = mark[1:]
	}
	if !ok || !p.done() || len(mark) != 6 {
		return SlaughterTag{}, formatError("slaughter tag", s, slaughterTagRule)
	}
	return SlaughterTag{"UK" + mark}, nil
}

func (t SlaughterTag) String() string { return t.s }
func (t SlaughterTag) IsZero() bool   { return t.s == "" }

// FlockMark is the 6-digit flock mark.
func (t SlaughterTag) FlockMark() FlockMark { return flockMarkAt(t.s, 2) }

// BatchNumber is the batch number the tag stands for (the same UK123456).
func (t SlaughterTag) BatchNumber() BatchNumber { return BatchNumber{t.s} }

func (t SlaughterTag) MarshalText() ([]byte, error) { return []byte(t.s), nil }

func (t *SlaughterTag) UnmarshalText(b []byte) error {
	v, err := ParseSlaughterTag(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
