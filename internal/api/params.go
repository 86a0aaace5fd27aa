package api

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/drover-registry/drover/internal/livestock"
)

// decodeParam percent-decodes a path parameter as the router captured it:
// canonicalPath leaves a slash inside a value escaped (%2F), so a CPH
// arrives as 01%2F100%2F0264 and leaves here as 01/100/0264.
func decodeParam(v string) (string, error) {
	d, err := url.PathUnescape(v)
	if err != nil {
		return "", livestock.Invalid("a path parameter cannot be decoded",
			livestock.FieldError{Code: livestock.CodeBadPath, Message: "cannot be percent-decoded", Value: v})
	}
	return d, nil
}

// maxQueryParams bounds the parameters of one query string. No operation
// takes more than a handful; the bound keeps a hostile query's cost and
// its error body small.
const maxQueryParams = 64

// checkQuery refuses a query string that r.URL.Query() would read wrongly
// without a word: net/url drops the whole query when it has more than
// 10,000 parameters, and drops each parameter with an escape it cannot
// decode or a ';' in it, so a request would run as if they were never
// sent. It also refuses more than maxQueryParams parameters, and names or
// values that are not UTF-8 text (control characters other than tab, CR
// and LF included), which no parameter of the document takes.
func checkQuery(raw string) error {
	if raw == "" {
		return nil
	}
	bad := func(source, value, format string, args ...any) error {
		return livestock.Invalid("the query string cannot be read", livestock.FieldError{Code: livestock.CodeBadQuery,
			Source: source, Value: truncate(strings.ToValidUTF8(value, "\uFFFD"), 200), Message: fmt.Sprintf(format, args...)})
	}
	// Empty pieces count, as net/url counts them for its own limit.
	if strings.Count(raw, "&") >= maxQueryParams {
		return bad("query", "", "has more than %d parameters", maxQueryParams)
	}
	for piece := range strings.SplitSeq(raw, "&") {
		if piece == "" {
			continue
		}
		rawName, rawValue, _ := strings.Cut(piece, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil {
			return bad("query", rawName, "a parameter name cannot be percent-decoded")
		}
		source := "query:" + truncate(strings.ToValidUTF8(name, "\uFFFD"), 100)
		value, err := url.QueryUnescape(rawValue)
		switch {
		case strings.Contains(piece, ";"):
			return bad(source, piece, "';' cannot separate parameters; use '&', and write a ';' in a value as %%3B")
		case err != nil:
			return bad(source, rawValue, "cannot be percent-decoded")
		case !queryText(name):
			return bad("query", rawName, "a parameter name must be UTF-8 text without control characters once percent-decoded")
		case !queryText(value):
			return bad(source, rawValue, "must be UTF-8 text without control characters once percent-decoded")
		}
	}
	return nil
}

// queryText reports whether s is UTF-8 without control characters, but
// for the white space a $filter may be written with.
func queryText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\r' && r != '\n') || r == 0x7f {
			return false
		}
	}
	return true
}
