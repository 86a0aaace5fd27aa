package openapi

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// pathMatcher matches a request path, percent-decoded but for %2F, to one
// path template of the document.
type pathMatcher struct {
	path    string
	re      *regexp.Regexp
	literal int // the template's characters outside parameters: the more, the more specific
}

var templateParam = regexp.MustCompile(`\{[^{}/]+\}`)

func newPathMatchers(paths []string) []pathMatcher {
	var out []pathMatcher
	for _, p := range paths {
		var b strings.Builder
		b.WriteString("^")
		last, literal := 0, 0
		for _, loc := range templateParam.FindAllStringIndex(p, -1) {
			b.WriteString(regexp.QuoteMeta(p[last:loc[0]]))
			literal += loc[0] - last
			fmt.Fprintf(&b, "(?P<%s>[^/]*)", p[loc[0]+1:loc[1]-1])
			last = loc[1]
		}
		b.WriteString(regexp.QuoteMeta(p[last:]) + "$")
		out = append(out, pathMatcher{path: p, re: regexp.MustCompile(b.String()), literal: literal + len(p) - last})
	}
	slices.SortFunc(out, func(a, b pathMatcher) int { return b.literal - a.literal })
	return out
}

// match is the template that path (escaped, as sent) falls under and the
// decoded values of its parameters; ok is false for a path the document
// does not list.
func (d *Doc) match(path string) (template string, params map[string]string, ok bool) {
	path, _, _ = strings.Cut(path, "?")
	// The service serves /v1.0 as /v1 and the root without its slash as
	// /v1/ (api.versionAlias); the document lists /v1 alone.
	if rest, ok := strings.CutPrefix(path, "/v1.0"); ok && (rest == "" || rest[0] == '/') {
		path = "/v1" + rest
	}
	if path == "/v1" {
		path = "/v1/"
	}
	canon, err := url.PathUnescape(strings.ReplaceAll(strings.ReplaceAll(path, "%2F", "%252F"), "%2f", "%252f"))
	if err != nil {
		return "", nil, false
	}
	for _, m := range d.matchers {
		sub := m.re.FindStringSubmatch(canon)
		if sub == nil {
			continue
		}
		params = map[string]string{}
		for i, name := range m.re.SubexpNames() {
			if name != "" {
				params[name], _ = url.PathUnescape(sub[i])
			}
		}
		return m.path, params, true
	}
	return "", nil, false
}
