package livestock

import (
	"fmt"
	"unicode/utf8"
)

// TrackingID is the client's own identifier for a submission: 1 to 36
// characters (a UUID fits exactly) of printable text, kept with the data for
// its lifetime. The service never makes one up. The zero value is "none".
type TrackingID struct{ s string }

// TrackingIDMaxLen is the most characters a TrackingID may have.
const TrackingIDMaxLen = 36

// ParseTrackingID checks the length in characters (code S007) and that the
// text is valid UTF-8 with no control or other invisible characters and no
// white space at either end (code S008).
func ParseTrackingID(s string) (TrackingID, error) {
	if !utf8.ValidString(s) {
		return TrackingID{}, ruleError(CodeBadFormat, "trackingId", s, "the text is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n < 1 || n > TrackingIDMaxLen {
		return TrackingID{}, ruleError(CodeBadLength, "trackingId", s,
			fmt.Sprintf("it must be 1 to %d characters long, not %d", TrackingIDMaxLen, n))
	}
	if !graphicText(s) {
		return TrackingID{}, ruleError(CodeBadFormat, "trackingId", s,
			"only printable characters are allowed, with no white space at either end")
	}
	return TrackingID{s}, nil
}

func (t TrackingID) String() string { return t.s }
func (t TrackingID) IsZero() bool   { return t.s == "" }

func (t TrackingID) MarshalText() ([]byte, error) { return []byte(t.s), nil }

func (t *TrackingID) UnmarshalText(b []byte) error {
	v, err := ParseTrackingID(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
