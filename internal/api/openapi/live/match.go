package live

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// basePaths are the prefixes under which Drover serves the live
// interfaces: /v1 (the interface documents' and the LIS server's) and
// /v1.0 (the CLA server's). The definitions write their paths without them.
var basePaths = []string{"/v1.0", "/v1"}

// droverAliases are paths Drover serves for a live operation under another
// name: the interface document's short form of the review look-up answers
// exactly what the live ReviewBySpecies function answers, so its answers
// are held to that operation.
var droverAliases = map[string]string{
	"/HoldingMovementForReviews(": "/HoldingMovementForReviews/ReviewBySpecies(",
}

// pathPattern matches a live path, base path removed and percent-decoded
// but for %2F, to one template.
type pathPattern struct {
	re      *regexp.Regexp
	literal int // characters outside parameters: the more, the more specific
}

var templateParam = regexp.MustCompile(`\{[^{}/]+\}`)

// compilePath turns a template such as
// /ApprovedMovements({id},{recordedBy}) into a pattern. Names are matched
// in any case (OData 4.01 resource paths are case-insensitive); a
// parameter is any run of characters without a slash, quoted or not.
func compilePath(template string) (pathPattern, error) {
	var b strings.Builder
	b.WriteString("(?i)^")
	last, literal := 0, 0
	for _, loc := range templateParam.FindAllStringIndex(template, -1) {
		b.WriteString(regexp.QuoteMeta(template[last:loc[0]]))
		literal += loc[0] - last
		b.WriteString(`([^/]*?)`)
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(template[last:]) + "$")
	re, err := regexp.Compile(b.String())
	return pathPattern{re: re, literal: literal + len(template) - last}, err
}

func sortOperations(ops []*Operation) {
	slices.SortStableFunc(ops, func(a, b *Operation) int {
		if a.match.literal != b.match.literal {
			return b.match.literal - a.match.literal
		}
		return strings.Compare(a.String(), b.String())
	})
}

// Find is the live operation a request for method and path (escaped, as
// sent; a query is ignored) calls, or nil when the path is no live path:
// Drover's own endpoints (/v1/me, /v1/StandingData, the issuer, …).
func (c *Contract) Find(method, path string) *Operation {
	live, ok := livePath(path)
	if !ok {
		return nil
	}
	for _, o := range c.ops {
		if o.Method == method && o.match.re.MatchString(live) {
			return o
		}
	}
	return nil
}

// livePath is path as a live definition writes it: without the query and
// the base path, decoded but for %2F, a Drover alias replaced by its live
// name.
func livePath(path string) (string, bool) {
	path, _, _ = strings.Cut(path, "?")
	path, err := url.PathUnescape(strings.NewReplacer("%2F", "%252F", "%2f", "%252f").Replace(path))
	if err != nil {
		return "", false
	}
	for _, base := range basePaths {
		if rest, ok := strings.CutPrefix(path, base); ok && strings.HasPrefix(rest, "/") {
			for from, to := range droverAliases {
				if strings.HasPrefix(strings.ToLower(rest), strings.ToLower(from)) {
					rest = to + rest[len(from):]
				}
			}
			return rest, true
		}
	}
	return "", false
}

// sortedRequestExamples orders the names of an operation's request
// examples: the definitions list a response example among them (see
// oddities.go), which is never sent.
func sortedRequestExamples(names []string) []string {
	var out []string
	for _, n := range slices.Sorted(slices.Values(names)) {
		if !isMisplacedResponseExample(n) {
			out = append(out, n)
		}
	}
	return out
}
