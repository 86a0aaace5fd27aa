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

// ParseQuery reads the query options of a collection that offers $filter
// on the given fields, $top (0 to maxPage), $skip, $skiptoken and
// $expand=content: Parse with that Collection.
func ParseQuery(v url.Values, fields Fields, maxPage int) (Query, error) {
	return Parse(v, Collection{Fields: fields, Expand: []Expansion{{Name: "content"}}, MaxPage: maxPage})
}

// Parse reads the query options of a request to collection c.
//
// A system query option is recognised with or without its "$" and in any
// letter case ($top, top, $TOP, Top), as OData 4.01 allows; one given
// twice, in any two spellings, is refused. A "$" parameter that is not an
// option c offers ($search, $apply, …, or $orderby where c has no order)
// is refused as not supported; other parameters belong to the endpoint
// and are left alone. The error is a *livestock.Error of KindInvalid
// listing every broken rule, each with Source "query:$<option>" in its
// lower-case name.
//
// $top=0 is a page of nothing, as OData has it: with $count=true it asks
// for the count alone.
func Parse(v url.Values, c Collection) (Query, error) {
	var q Query
	var errs []livestock.FieldError
	add := func(err error) {
		if e := (*livestock.Error)(nil); errors.As(err, &e) {
			errs = append(errs, e.Fields...)
		}
	}
	given, unknown := systemOptions(v)
	offered := c.offered()
	for _, name := range allOptions {
		g, ok := given[name]
		switch {
		case !ok:
			continue
		case len(g.values) > 1:
			errs = append(errs, optionError(livestock.CodeBadQuery, name, strings.Join(g.values, ", "),
				"%s is given %d times%s; give it at most once", name, len(g.values), g.spellings(name)))
			continue
		case !slices.Contains(offered, name):
			unknown = append(unknown, g.names[0])
			continue
		}
		s := g.values[0]
		var err error
		switch name {
		case "$filter":
			q.Filter, err = ParseFilter(s, c.Fields)
		case "$top":
			q.Top, err = parseTop(s, c.MaxPage)
			q.HasTop = err == nil
		case "$skip":
			q.Skip, err = parseSkip(s)
		case "$expand":
			q.Expand, err = parseExpandTree(s, c.Expand)
		case "$select":
			q.Select, err = parseSelect(s, c.Members)
		case "$orderby":
			q.OrderBy, err = parseOrderBy(s, c)
		case "$count":
			q.Count, err = parseCount(s)
		case "$format":
			err = checkFormat(s)
		}
		add(err)
	}
	// The token is read last: under an $orderby it holds one value for
	// each of the order's fields, read by their kinds.
	if g, ok := given["$skiptoken"]; ok && len(g.values) == 1 && slices.Contains(offered, "$skiptoken") {
		var err error
		if q.OrderBy == nil {
			q.AfterID, err = ParseSkipToken(g.values[0])
		} else {
			q.After, err = parseKeysetToken(g.values[0], q.Order(c.Key...), c.Fields)
		}
		add(err)
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		canonical, _ := optionName(name)
		source := canonical
		if source == "" {
			source = name
		}
		errs = append(errs, optionError(livestock.CodeBadQuery, clip(source), strings.Join(v[name], ", "),
			"%s is not supported; %s", clip(name), c.listOffered()))
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
// lastID, for @odata.nextLink in the default order: the same $filter as
// canonical text, the same $expand, and a $skiptoken after lastID. $skip
// is left out, because the first page used it up and the token now marks
// the place. (A query with $top has no next link: the caller pages with
// $skip.) The endpoint adds its own parameters and encodes the result.
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

// Order is the whole order of the items: $orderby, then each field of
// the key ascending that $orderby does not name, so that no two items
// tie and a $skiptoken marks one place. It is nil in the default order.
func (q Query) Order(key ...string) []OrderItem {
	if q.OrderBy == nil {
		return nil
	}
	return withKey(q.OrderBy, key)
}

// withKey is order followed by each field of key it does not name,
// ascending.
func withKey(order []OrderItem, key []string) []OrderItem {
	order = slices.Clone(order)
	for _, k := range key {
		if !slices.ContainsFunc(order, func(o OrderItem) bool { return o.Field == k }) {
			order = append(order, OrderItem{Field: k})
		}
	}
	return order
}

// Token is the $skiptoken for the page after one whose last item has the
// values keys (one per item of Order(key...), as Query.After holds them),
// or, in the default order, the position lastID.
func (q Query) Token(key []string, lastID int64, keys []any) string {
	if q.OrderBy == nil {
		return SkipToken(lastID)
	}
	return keysetToken(q.Order(key...), keys)
}

// parseTop reads $top: a whole number from 0 to maxPage.
func parseTop(s string, maxPage int) (int, error) {
	n, ok := wholeNumber(s)
	switch {
	case ok && n > int64(maxPage):
		return 0, invalid(optionError(livestock.CodePageTooLarge, "$top", s,
			"$top must be at most %d, the largest results page", maxPage))
	case !ok:
		return 0, invalid(optionError(livestock.CodeBadQuery, "$top", s,
			"$top must be a whole number from 0 to %d", maxPage))
	}
	return int(n), nil
}

// MaxSkip is the largest $skip. The database reads every result it
// skips, so a $skip costs what it skips: at 900,000 a hundred times a
// page. Up to MaxSkip it costs a few pages at most; further on, a listing
// is read by @odata.nextLink, whose keyset token costs one page at any
// depth, or narrowed by $filter.
const MaxSkip = 10_000

// parseSkip reads $skip: a whole number from 0 to MaxSkip.
func parseSkip(s string) (int, error) {
	n, ok := wholeNumber(s)
	if !ok || n > MaxSkip {
		return 0, invalid(optionError(livestock.CodeBadQuery, "$skip", s,
			"$skip must be a whole number from 0 to %d; to read further, leave out $top and follow "+
				"@odata.nextLink, or narrow the results with $filter", MaxSkip))
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

// parseExpand reads $expand as ParseQuery does: names separated by
// commas, each "content".
func parseExpand(s string) ([]string, error) {
	return parseExpandTree(s, defaultExpansions)
}
