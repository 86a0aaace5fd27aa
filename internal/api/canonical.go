package api

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/drover-registry/drover/internal/livestock"
)

// canonicalPath rewrites the escaped path so that the router sees one
// spelling of each path. OData paths carry quotes and parentheses that
// clients may percent-encode (%27, %28, %29); those are decoded. A slash
// inside a value (a CPH written 01%2f100%2f0264) stays encoded, as %2F, so
// it cannot split a segment; handlers decode their parameters. A path that
// decodes to invalid UTF-8 or control characters is a 400.
func (s *Server) canonicalPath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := r.URL.EscapedPath()
		canon, ok := canonicalEscapedPath(raw)
		canon = orderFunctionParams(canon)
		if !ok {
			writeProblemFor(w, r, livestock.Invalid("the path cannot be decoded", livestock.FieldError{
				Code: livestock.CodeBadPath, Message: "the path must be valid UTF-8 without control characters once percent-decoded",
				Source: "path", Value: truncate(raw, 200)}))
			return
		}
		// RawPath is set whenever the path holds an escape, even one Go
		// would write the same way (then it leaves RawPath empty): the
		// router reads RawPath when it is set, else the decoded Path, and
		// handlers decode their parameters once more. /animals/x%2520y
		// would otherwise reach its handler as "x y", decoded twice.
		if canon != raw || r.URL.RawPath != "" || strings.Contains(raw, "%") {
			u := *r.URL
			u.RawPath = canon
			u.Path, _ = url.PathUnescape(canon) // canon is well formed: checked above
			r2 := *r
			r2.URL = &u
			r = &r2
		}
		next.ServeHTTP(w, r)
	})
}

// canonicalEscapedPath decodes every escape except those of '/', '%', '?'
// and '#', writes those few in upper case, and reports false when the
// decoded path is not valid UTF-8 or holds a control character.
func canonicalEscapedPath(p string) (string, bool) {
	if !strings.Contains(p, "%") {
		return p, validPathText(p)
	}
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
			return "", false
		}
		d := unhex(p[i+1])<<4 | unhex(p[i+2])
		switch d {
		case '/', '%', '?', '#':
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(p[i+1 : i+3]))
		default:
			b.WriteByte(d)
		}
		i += 2
	}
	out := b.String()
	return out, validPathText(out)
}

func validPathText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
