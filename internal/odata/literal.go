package odata

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

const dateTimeExample = "2026-11-01T00:00:00Z"

// literal reads the value compared with field, by the field's kind.
func (p *parser) literal(field string, f Field) (any, error) {
	t, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	switch f.Kind {
	case String:
		if t.kind != tString {
			return nil, p.unexpected(t, "a string in single quotes for "+field)
		}
		v := t.text
		if f.Read != nil { // first, so that Read may turn an alias into one of Values
			if v, err = f.Read(t.text); err != nil {
				return nil, syntaxError(p.s, t.off, t.raw, "%s is not a %s: %v", clip(t.raw), field, err)
			}
		}
		if len(f.Values) > 0 && !slices.Contains(f.Values, v) {
			return nil, syntaxError(p.s, t.off, t.raw, "%s is not a %s: it is one of %s (as written)", clip(t.raw), field, strings.Join(f.Values, ", "))
		}
		return v, nil
	case Int:
		if t.kind == tString {
			return nil, p.unexpected(t, "a whole number without quotes for "+field)
		}
		if t.kind != tWord || !isInteger(t.text) {
			return nil, p.unexpected(t, "a whole number for "+field)
		}
		n, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, syntaxError(p.s, t.off, t.raw, "%s is out of range for %s (a 64-bit whole number)", clip(t.raw), field)
		}
		return n, nil
	case Bool:
		if t.kind != tWord || (t.text != "true" && t.text != "false") {
			return nil, p.unexpected(t, "true or false for "+field)
		}
		return t.text == "true", nil
	case DateTime:
		if t.kind == tString {
			return nil, p.unexpected(t, "a date-time without quotes for "+field+", e.g. "+dateTimeExample)
		}
		if t.kind != tWord {
			return nil, p.unexpected(t, "a date-time for "+field+", e.g. "+dateTimeExample)
		}
		return p.dateTime(field, t)
	}
	// A Fields entry with a kind this package does not know is a
	// programming error; refuse the field rather than guess.
	return nil, filterError(livestock.CodeFilterField, p.s, t.off, field, "%s cannot be filtered on", field)
}

// dateTime reads the date-time literal t, with ";" read as ":".
func (p *parser) dateTime(field string, t token) (any, error) {
	text := strings.ReplaceAll(t.text, ";", ":")
	dt, err := livestock.ParseDateTime(text)
	if err != nil {
		if _, ok := livestock.ParseDateTime(text + "Z"); ok == nil {
			// Everything but the offset is there. If "hh:mm" follows after
			// a space, the caller wrote +hh:mm and the URL decoding made
			// the + a space.
			if next, err := p.lx.peek(); err == nil && next.kind == tWord && isClock(next.text) {
				end := next.off + len(next.raw)
				return nil, syntaxError(p.s, t.off+len(t.raw), p.s[t.off:end],
					"%s has a space where the offset's sign should be: in a URL query + is read as a space, so write + as %%2b, e.g. 2026-11-01T00:00:00%%2b01:00", field)
			}
		}
		return nil, syntaxError(p.s, t.off, t.raw,
			"%s needs a date-time with a time and an offset, e.g. %s (%s)", field, dateTimeExample, reason(err))
	}
	u := dt.Time().UTC()
	if u.Nanosecond()%1000 != 0 {
		// The stores keep instants to the microsecond, and a date-time
		// field compares to the second as it is shown: a finer fraction
		// would say nothing, and the rule clients were given stays.
		return nil, syntaxError(p.s, t.off, t.raw, "%s takes at most 6 digits of a second's fraction (microseconds)", field)
	}
	if y := u.Year(); y < 1 || y > 9999 {
		return nil, syntaxError(p.s, t.off, t.raw, "%s needs a date-time whose UTC instant falls in the years 0001 to 9999", field)
	}
	return u, nil
}

// reason is why livestock.ParseDateTime refused a value, without the
// prefix and the rule it repeats (the message here states the rule).
func reason(err error) string {
	var e *livestock.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return "not a valid date-time"
	}
	m := strings.TrimPrefix(e.Fields[0].Message, "not a valid date-time: ")
	if i := strings.Index(m, " (yyyy-"); i > 0 {
		m = m[:i]
	}
	return m
}

// isInteger reports whether w is an optional "-" and one or more digits.
func isInteger(w string) bool {
	w = strings.TrimPrefix(w, "-")
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// isClock reports whether w is hh:mm (or hh;mm), the rest of an offset.
func isClock(w string) bool {
	return len(w) == 5 && isDigit(w[0]) && isDigit(w[1]) && (w[2] == ':' || w[2] == ';') && isDigit(w[3]) && isDigit(w[4])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
