package livestock

import (
	"strings"
	"unicode/utf8"
)

// PlainText reports whether s is UTF-8 without control characters: text a
// person can type, and text both stores can hold and compare. PostgreSQL
// refuses a NUL or invalid UTF-8 in a query's text where SQLite only finds
// no match, so a name (a user name, a token subject) is checked with this
// where it enters, before it reaches either.
func PlainText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}
