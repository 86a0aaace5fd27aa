package odata

import (
	"strings"
)

// tokKind is what a token of $filter is. Words are field names, keywords,
// operators, numbers and date-times alike: the parser tells them apart by
// where they stand.
type tokKind int

const (
	tEnd    tokKind = iota // the end of the filter
	tWord                  // a run of anything but spaces, parentheses and quotes
	tString                // 'text', with '' for a quote inside
	tOpen                  // (
	tClose                 // )
	tComma                 // , between a function's arguments
)

type token struct {
	kind tokKind
	raw  string // as written
	text string // a word as written; a string's value, unquoted
	off  int    // byte offset in the filter
}

// describe names a token for "found …" in a message.
func (t token) describe() string {
	switch t.kind {
	case tEnd:
		return "the end of the filter"
	case tOpen:
		return "an opening parenthesis"
	case tClose:
		return "a closing parenthesis"
	case tComma:
		return "a comma"
	case tString:
		return "the string " + clip(t.raw)
	}
	return clip(t.raw)
}

// clip shortens a token for a message; the whole of it is in Value.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	for i := range s {
		if i >= n {
			return s[:i] + "…"
		}
	}
	return s
}

// lexer reads tokens on demand, so that the first error reported is the
// one nearest the start, whichever of lexer and parser finds it.
type lexer struct {
	s        string
	i        int
	prev     tokKind // the kind of the token before, tOpen at the start
	prevWord string  // the token before, when it was a word
	peeked   *token
}

func newLexer(s string) *lexer { return &lexer{s: s, prev: tOpen} }

func (l *lexer) peek() (token, error) {
	if l.peeked == nil {
		t, err := l.scan()
		if err != nil {
			return token{}, err
		}
		l.peeked = &t
	}
	return *l.peeked, nil
}

func (l *lexer) next() (token, error) {
	t, err := l.peek()
	l.peeked = nil
	return t, err
}

func (l *lexer) scan() (token, error) {
	start := l.i
	for l.i < len(l.s) && l.s[l.i] == ' ' {
		l.i++
	}
	spaced := l.i > start
	off := l.i
	if off == len(l.s) {
		return token{kind: tEnd, off: off}, nil
	}
	var t token
	switch c := l.s[off]; {
	case isControl(c):
		return token{}, syntaxError(l.s, off, "", "a control character is not allowed; separate words with spaces")
	case c == '(':
		l.i++
		t = token{kind: tOpen, raw: "(", off: off}
	case c == ')':
		l.i++
		t = token{kind: tClose, raw: ")", off: off}
	case c == ',':
		l.i++
		t = token{kind: tComma, raw: ",", off: off}
	case c == '\'':
		var err error
		if t, err = l.scanString(); err != nil {
			return token{}, err
		}
	default:
		for l.i < len(l.s) && !endsWord(l.s[l.i]) {
			l.i++
		}
		t = token{kind: tWord, raw: l.s[off:l.i], text: l.s[off:l.i], off: off}
	}
	// A space is needed between two tokens except just inside a
	// parenthesis (after "(" or before ")"), around a comma, and between a
	// function's name and its "(": contains(trackingId,'x').
	call := t.kind == tOpen && l.prevWord != "" && !isKeyword(l.prevWord)
	if !spaced && l.prev != tOpen && l.prev != tComma && t.kind != tClose && t.kind != tComma && !call {
		err := syntaxError(l.s, off, t.raw, "expected a space before %s", t.describe())
		if l.prev == tString {
			err.Fields[0].Message += " (a quote inside a string is written twice: 'O''Brien')"
		}
		return token{}, err
	}
	l.prev, l.prevWord = t.kind, t.text
	if t.kind != tWord {
		l.prevWord = ""
	}
	return t, nil
}

// scanString reads a quoted string at l.i, where two quotes stand for one.
func (l *lexer) scanString() (token, error) {
	off := l.i
	i := off + 1
	for {
		q := strings.IndexByte(l.s[i:], '\'')
		if q < 0 {
			return token{}, syntaxError(l.s, off, l.s[off:], "the string that starts here has no closing quote (a quote inside a string is written twice: 'O''Brien')")
		}
		for j := i; j < i+q; j++ {
			if isControl(l.s[j]) {
				return token{}, syntaxError(l.s, j, "", "a control character is not allowed in a string")
			}
		}
		i += q + 1
		if i < len(l.s) && l.s[i] == '\'' {
			i++ // '' is a quote inside the string
			continue
		}
		break
	}
	l.i = i
	raw := l.s[off:i]
	return token{kind: tString, raw: raw, text: strings.ReplaceAll(raw[1:len(raw)-1], "''", "'"), off: off}, nil
}

func endsWord(c byte) bool {
	return c == ' ' || c == '(' || c == ')' || c == '\'' || c == ',' || isControl(c)
}

func isControl(c byte) bool { return c < 0x20 || c == 0x7f }
