package api

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// escapesKept are the only escapes a canonical path may hold: those that
// would change the path's structure if decoded, in upper case.
var escapesKept = regexp.MustCompile(`%(2F|25|3F|23)`)

// FuzzCanonicalPath holds canonicalEscapedPath to what the router relies
// on: a path is refused exactly when it does not decode to text without
// control characters; an accepted one decodes to the same text as the
// client's spelling, is its own canonical form (so any two spellings of a
// path meet in one), and keeps escaped only '/', '%', '?' and '#'.
func FuzzCanonicalPath(f *testing.F) {
	for _, s := range []string{
		"/v1/TransferRequests(123)",
		"/v1/TransferRequests%28123%29",
		"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')",
		"/v1/HoldingMovementForReviews(species=%27Sheep%27,holding=%2701%2F100%2F0264%27)",
		"/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='01/100/0264')",
		"/v1/animals/UK442501300001",
		"/v1/StandingData/species%00",
		"/v1/%zz", "/v1/%", "/v1/%4", "/v1/%25", "/v1/%2541", "/v1/%e9", "/v1/%c3%a9", "/v1/caf%C3%A9",
		"/v1/%ef%bf%bd", "/v1/%ed%a0%80", "/v1/%7f", "/v1/a%3fb%23c", "/v1/a%2F%2f",
		"/v1/O'Brien''s", "/" + strings.Repeat("%28", 3000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		canon, ok := canonicalEscapedPath(p)
		decoded, err := url.PathUnescape(p)
		wantOK := err == nil && utf8.ValidString(decoded) && !strings.ContainsFunc(decoded, func(r rune) bool { return r < 0x20 || r == 0x7f })
		if ok != wantOK {
			t.Fatalf("canonicalEscapedPath(%q) ok = %v; decoded %q, %v", p, ok, decoded, err)
		}
		if !ok {
			return
		}
		back, err := url.PathUnescape(canon)
		if err != nil || back != decoded {
			t.Fatalf("canonicalEscapedPath(%q) = %q, which decodes to %q (%v), not %q", p, canon, back, err, decoded)
		}
		if again, ok := canonicalEscapedPath(canon); !ok || again != canon {
			t.Fatalf("canonicalEscapedPath(%q) = %q, but that gives %q, %v", p, canon, again, ok)
		}
		if strings.Count(canon, "%") != len(escapesKept.FindAllString(canon, -1)) {
			t.Fatalf("canonicalEscapedPath(%q) = %q keeps an escape it should decode", p, canon)
		}
		// A handler's parameter is a piece of the canonical path between
		// delimiters; it decodes without error.
		for seg := range strings.SplitSeq(canon, "/") {
			if _, err := decodeParam(seg); err != nil {
				t.Fatalf("canonicalEscapedPath(%q) = %q: segment %q does not decode: %v", p, canon, seg, err)
			}
		}
	})
}
