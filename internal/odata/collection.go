package odata

import (
	"net/url"
	"slices"
	"strings"
)

// Collection is what the query options of one collection may name. It is
// data only, so that every collection (the request collections, the
// approved movements, the review look-up) is read by the same parser.
type Collection struct {
	Fields Fields // what $filter compares, and $orderby sorts by
	// OrderBy says whether $orderby is offered, over the Fields that are
	// not Unordered. Key is then the fields that together identify an item
	// (requestId; id and recordedBy), last in every order, so that a
	// $skiptoken marks one place.
	OrderBy bool
	Key     []string
	Members []string    // what $select may name; nil: $select is not offered
	Expand  []Expansion // what $expand may name; nil: $expand is not offered
	Count   bool        // whether $count=true is offered
	Format  bool        // whether $format=json is accepted (JSON is all Drover writes)
	MaxPage int         // the largest results page, the most $top may ask for
	// Single says the answer is one item or a number, not a page: $top,
	// $skip and $skiptoken are refused rather than ignored, and $filter
	// is offered only over Fields.
	Single bool
}

// Expansion is a member $expand may name, and the members below it that
// it may name in turn (content($expand=movementGroups), or
// content/movementGroups).
type Expansion struct {
	Name   string
	Nested []Expansion
}

// MaxExpandDepth is how deep $expand may reach, as the live service's
// definition states: content/movementGroups is depth 2.
const MaxExpandDepth = 2

// expansions are the names ParseQuery's $expand accepts.
var expansions = []string{"content"}

var defaultExpansions = []Expansion{{Name: "content"}}

// allOptions are the system query options of OData that Drover knows, in
// the order their errors are reported. Each is read in its lower-case
// spelling with a "$"; only those a collection offers are accepted.
var allOptions = []string{"$filter", "$top", "$skip", "$skiptoken", "$expand", "$select", "$orderby", "$count", "$format"}

// otherOptions are system query options Drover never offers: they are
// recognised without their "$" too, to be refused rather than ignored.
var otherOptions = []string{"$search", "$apply", "$compute", "$index", "$levels", "$schemaversion", "$deltatoken", "$id"}

// optionName is the canonical name of system query option name, written
// with or without "$" in any case, or false when name is no option.
func optionName(name string) (string, bool) {
	lower := strings.ToLower(name)
	if !strings.HasPrefix(lower, "$") {
		lower = "$" + lower
	}
	if slices.Contains(allOptions, lower) || slices.Contains(otherOptions, lower) {
		return lower, true
	}
	return "", false
}

// givenOption is how a request gave one option: under which names, with
// which values.
type givenOption struct {
	names  []string
	values []string
}

// spellings says, for "given twice", the spellings used when they are not
// all the canonical one.
func (g givenOption) spellings(canonical string) string {
	if len(g.names) == 1 && g.names[0] == canonical {
		return ""
	}
	return " (as " + strings.Join(g.names, ", ") + ")"
}

// systemOptions sorts a query's parameters: the known system options,
// by canonical name, and the "$" names that are no option Drover knows.
func systemOptions(v url.Values) (map[string]givenOption, []string) {
	given := map[string]givenOption{}
	var unknown []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range v {
			if !yield(k) {
				return
			}
		}
	}) {
		canonical, ok := optionName(name)
		switch {
		case ok && slices.Contains(allOptions, canonical):
			g := given[canonical]
			g.names = append(g.names, name)
			g.values = append(g.values, v[name]...)
			given[canonical] = g
		case ok || strings.HasPrefix(name, "$"):
			unknown = append(unknown, name)
		}
	}
	return given, unknown
}

// offered is the options c accepts.
func (c Collection) offered() []string {
	var names []string
	if !c.Single || c.Fields != nil {
		names = append(names, "$filter")
	}
	if !c.Single {
		names = append(names, "$top", "$skip", "$skiptoken")
	}
	if c.Expand != nil {
		names = append(names, "$expand")
	}
	if c.Members != nil {
		names = append(names, "$select")
	}
	if c.OrderBy {
		names = append(names, "$orderby")
	}
	if c.Count {
		names = append(names, "$count")
	}
	if c.Format {
		names = append(names, "$format")
	}
	return names
}

// listOffered names the options c accepts, as a clause for messages.
func (c Collection) listOffered() string {
	switch names := c.offered(); len(names) {
	case 0:
		return "it takes no query option"
	case 1:
		return "the only query option is " + names[0]
	default:
		return "the query options are " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
}
