package odata

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/drover-registry/drover/internal/livestock"
)

// Every error of this package is a *livestock.Error of KindInvalid whose
// fields say which query option (Source "query:$filter", "query:$top", …),
// which code, and, for $filter, at which character and by which rule.

const filterSource = "query:$filter"

// optionError is one broken rule of a query option other than $filter.
func optionError(code livestock.Code, option, value, format string, args ...any) livestock.FieldError {
	return livestock.FieldError{
		Code:    code,
		Message: fmt.Sprintf(format, args...),
		Source:  "query:" + option,
		Value:   printable(value),
	}
}

// invalid wraps the broken rules of a request's query options in one error.
func invalid(fields ...livestock.FieldError) *livestock.Error {
	detail := "the query options cannot be used"
	if len(fields) == 1 {
		detail = strings.TrimPrefix(fields[0].Source, "query:") + " cannot be used"
	}
	return livestock.Invalid(detail, fields...)
}

// at is the 1-based character (not byte) position of byte offset off in s.
func at(s string, off int) int {
	return utf8.RuneCountInString(s[:off]) + 1
}

// maxValue is the most of an offending value an error carries.
const maxValue = 200

// printable makes an offending value safe to echo: valid UTF-8, and cut
// short (with "…") when it is longer than maxValue characters.
func printable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	n := 0
	for i := range s {
		if n == maxValue {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// listFields is the allow-list in a stable order, for messages.
func listFields(fields Fields) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
