package odata

import (
	"errors"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// options are the system query options Drover reads, in the order their
// errors are reported.
var options = []string{"$filter", "$top", "$skip", "$skiptoken", "$expand"}

// Expansions are the names $expand accepts.
var expansions = []string{"content"}

// ParseQuery reads the query options of a collection request: $filter on
// the given fields, $top (1 to maxPage), $skip, $skiptoken and $expand.
//
// Any other parameter whose name starts with "$" ($orderby, $select,
// $count, …) is refused as not supported, and so is an option given twice;
// parameters without a "$" belong to the endpoint and are left alone.
// The error is a *livestock.Error of KindInvalid listing every broken
// rule, each with Source "query:<option>".
//
// $top=0 is refused: OData allows it, but a page of nothing is never what
// a caller means, and it would make "no $top" and "$top=0" easy to confuse.
func ParseQuery(v url.Values, fields Fields, maxPage int) (Query, error) {
	var q Query
	var errs []livestock.FieldError
	add := func(err error) {
		if e := (*livestock.Error)(nil); errors.As(err, &e) {
			errs = append(errs, e.Fields...)
		}
	}
	for _, name := range options {
		vals, ok := v[name]
		switch {
		case !ok:
			continue
		case len(vals) > 1:
			errs = append(errs, optionError(livestock.CodeBadQuery, name, strings.Join(vals, ", "),
				"%s is given %d times; give it at most once", name, len(vals)))
			continue
		}
		s := vals[0]
		var err error
		switch name {
		case "$filter":
			q.Filter, err = ParseFilter(s, fields)
		case "$top":
			q.Top, err = parseTop(s, maxPage)
			q.HasTop = err == nil
		case "$skip":
			q.Skip, err = parseSkip(s)
		case "$skiptoken":
			q.AfterID, err = ParseSkipToken(s)
		case "$expand":
			q.Expand, err = parseExpand(s)
		}
		add(err)
	}
	var unknown []string
	for name := range v {
		if strings.HasPrefix(name, "$") && !slices.Contains(options, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		msg := "%s is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand"
		if slices.Contains(options, strings.ToLower(name)) {
			msg += " (option names are lower case)"
		}
		errs = append(errs, optionError(livestock.CodeBadQuery, name, strings.Join(v[name], ", "), msg, clip(name)))
	}
	if len(errs) > 0 {
		return Query{}, invalid(errs...)
	}
	return q, nil
}

// CheckMetadataQuery checks the query of GET $metadata, which is XML
// only: it takes no system query option but $format=xml (or
// application/xml), given once. Parameters without a "$" are left alone,
// as on the collections. The error is as ParseQuery's.
func CheckMetadataQuery(v url.Values) error {
	var errs []livestock.FieldError
	for _, name := range slices.Sorted(maps.Keys(v)) {
		values := v[name]
		if !strings.HasPrefix(name, "$") || (name == "$format" && len(values) == 1 &&
			(values[0] == "xml" || values[0] == "application/xml")) {
			continue
		}
		errs = append(errs, optionError(livestock.CodeBadQuery, clip(name), strings.Join(values, ", "),
			"%s is not supported here: $metadata takes no query option but $format=xml", clip(name)))
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	return nil
}

// PageSize is the number of items to return: $top when it was given (and
// not above maxPage), maxPage otherwise.
func (q Query) PageSize(maxPage int) int {
	if q.HasTop && q.Top < maxPage {
		return q.Top
	}
	return maxPage
}

// Next is the query options of the page after one that ended with the item
// lastID, for @odata.nextLink: the same $filter as canonical text, the same
// $expand, and a $skiptoken after lastID. $skip is left out, because the
// first page used it up and the token now marks the place. (A query with
// $top has no next link: the caller pages with $skip.) The endpoint adds
// its own parameters and encodes the result.
func (q Query) Next(lastID int64) url.Values {
	v := url.Values{}
	if q.Filter != nil {
		v.Set("$filter", Format(q.Filter))
	}
	if len(q.Expand) > 0 {
		v.Set("$expand", strings.Join(q.Expand, ","))
	}
	v.Set("$skiptoken", SkipToken(lastID))
	return v
}

// parseTop reads $top: a whole number from 1 to maxPage.
func parseTop(s string, maxPage int) (int, error) {
	n, ok := wholeNumber(s)
	switch {
	case ok && n > int64(maxPage):
		return 0, invalid(optionError(livestock.CodePageTooLarge, "$top", s,
			"$top must be at most %d, the largest results page", maxPage))
	case !ok || n < 1:
		return 0, invalid(optionError(livestock.CodeBadQuery, "$top", s,
			"$top must be a whole number from 1 to %d", maxPage))
	}
	return int(n), nil
}

// parseSkip reads $skip: a whole number, 0 or more.
func parseSkip(s string) (int, error) {
	n, ok := wholeNumber(s)
	if !ok || n > math.MaxInt32 {
		return 0, invalid(optionError(livestock.CodeBadQuery, "$skip", s,
			"$skip must be a whole number from 0 to %d", math.MaxInt32))
	}
	return int(n), nil
}

// wholeNumber reads digits only (no sign, no spaces). A number too large
// for an int64 is read as math.MaxInt64: still a number, just too large.
func wholeNumber(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64, true
	}
	return n, true
}

// parseExpand reads $expand: names separated by commas, each one of
// expansions. A name given twice counts once. The first bad name is the
// one reported.
func parseExpand(s string) ([]string, error) {
	var names []string
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
			return nil, invalid(optionError(livestock.CodeBadQuery, "$expand", s,
				"$expand has an empty name; give names separated by commas, from: %s", strings.Join(expansions, ", ")))
		case !slices.Contains(expansions, name):
			return nil, invalid(optionError(livestock.CodeBadQuery, "$expand", name,
				"%s cannot be expanded; the expansions are: %s", clip(name), strings.Join(expansions, ", ")))
		case !slices.Contains(names, name):
			names = append(names, name)
		}
	}
	return names, nil
}
