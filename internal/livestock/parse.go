package livestock

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ruleError is formatError's sibling for a value that has the right shape
// but breaks a rule that formatError's "expected ..." wording does not fit,
// such as a wrong check digit. The message reads "not a valid <what>: <why>".
func ruleError(code Code, what, value, why string) *Error {
	return &Error{Kind: KindInvalid, Detail: fmt.Sprintf("%s %q is not valid", what, value), Fields: []FieldError{{
		Code:    code,
		Message: fmt.Sprintf("not a valid %s: %s", what, why),
		Value:   value,
	}}}
}

// scanner reads a value left to right, one fixed-width group at a time. Each
// method reports whether the group was there; a failed method leaves the
// position where it was.
type scanner struct {
	s string
	i int
}

// lit consumes l if it comes next.
func (p *scanner) lit(l string) bool {
	if strings.HasPrefix(p.s[p.i:], l) {
		p.i += len(l)
		return true
	}
	return false
}

// space consumes one optional space.
func (p *scanner) space() { p.lit(" ") }

// digits consumes exactly n ASCII digits.
func (p *scanner) digits(n int) (string, bool) {
	if len(p.s)-p.i < n || !allDigits(p.s[p.i:p.i+n]) {
		return "", false
	}
	d := p.s[p.i : p.i+n]
	p.i += n
	return d, true
}

// run consumes the longest run of ASCII digits, perhaps none.
func (p *scanner) run() string {
	j := p.i
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	d := p.s[p.i:j]
	p.i = j
	return d
}

func (p *scanner) done() bool { return p.i == len(p.s) }

// atoi reads a string of ASCII digits the caller has already checked, short
// enough not to overflow.
func atoi(d string) int {
	n := 0
	for i := 0; i < len(d); i++ {
		n = n*10 + int(d[i]-'0')
	}
	return n
}

// graphicText reports whether s is valid UTF-8 made only of graphic
// characters (letters, marks, numbers, punctuation, symbols and spaces),
// with no white space at either end: text that prints as itself and
// survives a round trip through any log or database unchanged.
func graphicText(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsGraphic(r) {
			return false
		}
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	return !unicode.IsSpace(first) && !unicode.IsSpace(last)
}
