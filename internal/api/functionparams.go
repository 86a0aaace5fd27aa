package api

import "strings"

// functionParams names the parameters of each OData function (and
// function-like key) path, in the order its route writes them. OData names
// a function's parameters, so a client may write them in any order;
// canonicalPath puts them in this one before the router reads the path.
var functionParams = map[string][]string{
	"HoldingMovementForReviews":                 {"species", "holding"},
	"HoldingMovementForReviews/ReviewBySpecies": {"species", "holding"},
	"ApprovedMovements/ByTransferDateRange": {"speciesId", "startTransferDate", "endTransferDate",
		"departureHolding", "destinationHolding"},
}

// orderFunctionParams is escaped path p with the named parameters of a
// function in functionParams written in the route's order. A path whose
// parameters are not exactly the function's (one missing, one unknown, one
// twice) is left as it is, for the router to refuse.
func orderFunctionParams(p string) string {
	if !strings.HasSuffix(p, ")") {
		return p
	}
	open := strings.IndexByte(p, '(')
	if open < 0 {
		return p
	}
	var prefix string
	for _, v := range []string{"/v1/", "/v1.0/"} {
		if strings.HasPrefix(p, v) {
			prefix = v
		}
	}
	names, ok := functionParams[p[len(prefix):open]]
	if prefix == "" || !ok {
		return p
	}
	given := map[string]string{}
	for _, pair := range strings.Split(p[open+1:len(p)-1], ",") {
		name, value, ok := strings.Cut(pair, "=")
		name, value = trimSpace(name), trimSpace(value)
		if _, twice := given[name]; !ok || twice {
			return p
		}
		given[name] = value
	}
	if len(given) != len(names) {
		return p
	}
	var b strings.Builder
	b.WriteString(p[:open+1])
	for i, name := range names {
		value, ok := given[name]
		if !ok {
			return p
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(name + "=" + value)
	}
	b.WriteByte(')')
	return b.String()
}

// trimSpace is s, escaped, without the spaces OData allows around a
// function's parameter names and values (its BWS; a tab is a control
// character, which no path may hold):
// "species='Sheep', holding='…'" is the same call as without the space.
func trimSpace(s string) string {
	for {
		t := s
		for _, sp := range []string{" ", "%20"} {
			t = strings.TrimPrefix(strings.TrimSuffix(t, sp), sp)
		}
		if t == s {
			return s
		}
		s = t
	}
}
