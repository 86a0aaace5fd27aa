package api

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// FuzzCheckQuery holds checkQuery to its promise: a query it passes is
// read by net/url whole (no error, so nothing dropped), within
// maxQueryParams, as UTF-8 text; a query it refuses is an S009 naming the
// query or a parameter in it.
func FuzzCheckQuery(f *testing.F) {
	for _, s := range []string{
		"", "$top=10&$skip=5", "$filter=species%20eq%20%27Sheep%27", "$filter=movementDate+ge+2026-11-01T00%3b00%3b00%2b01%3a00",
		"$top=1;$skip=2", "$top=%zz", "%ff=1", "x=%c3%28", "x=%00", "x=%09%0d%0a", "&&&&", "a&b&c", "x=caf%C3%A9",
		strings.Repeat("a=1&", 64), strings.Repeat("a=1&", 65), strings.Repeat("&", 100_000) + "a=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := checkQuery(raw)
		if err != nil {
			var e *livestock.Error
			if !errors.As(err, &e) || e.Kind != livestock.KindInvalid || len(e.Fields) != 1 ||
				e.Fields[0].Code != livestock.CodeBadQuery || !strings.HasPrefix(e.Fields[0].Source, "query") {
				t.Fatalf("checkQuery(%q) = %#v", raw, err)
			}
			return
		}
		v, perr := url.ParseQuery(raw)
		if perr != nil {
			t.Fatalf("checkQuery(%q) passed a query net/url reads with %v", raw, perr)
		}
		n := 0
		for name, vals := range v {
			n += len(vals)
			if !queryText(name) {
				t.Fatalf("checkQuery(%q) passed the name %q", raw, name)
			}
			for _, val := range vals {
				if !queryText(val) {
					t.Fatalf("checkQuery(%q) passed the value %q", raw, val)
				}
			}
		}
		if n > maxQueryParams {
			t.Fatalf("checkQuery(%q) passed %d parameters", raw, n)
		}
	})
}
