package odata

import (
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// queryErrorFields is the fields of err, which must be a KindInvalid
// *livestock.Error whose every field is an S-code at a "query:$…" source;
// the fuzz targets below hold every parser of a query option to that.
func queryErrorFields(t *testing.T, input string, err error) []livestock.FieldError {
	t.Helper()
	var e *livestock.Error
	if !errors.As(err, &e) || e.Kind != livestock.KindInvalid || len(e.Fields) == 0 {
		t.Fatalf("%q: error %#v is not an invalid-query error", input, err)
	}
	for _, f := range e.Fields {
		if !strings.HasPrefix(f.Source, "query:$") || !strings.HasPrefix(string(f.Code), "S") || f.Message == "" {
			t.Fatalf("%q: error field %+v does not name a query option", input, f)
		}
	}
	return e.Fields
}

// FuzzParseQuery reads a whole query string as the handlers do (through
// url.ParseQuery, whose errors r.URL.Query() ignores). Every error names
// its option; an accepted query keeps $top within the page, and the query
// that @odata.nextLink carries reads back as the same filter and expansion
// with the token's place, so paging never breaks.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"",
		"$top=10&$skip=5",
		"$filter=movementDate%20ge%202026-11-01T00%3b00%3b00Z%20and%20movementDate%20le%202026-11-30T23%3b59%3b59%2b00%3a00",
		"$filter=species%20eq%20%27Sheep%27&$top=20&$skip=40&$skiptoken=" + SkipToken(9) + "&$expand=content",
		"species=Sheep&holding=12%2f345%2f6789&$top=1",
		"$top=1&$top=2",
		"$TOP=1&$orderby=requestId&$select=requestId&$count=true",
		"$top=0&$skip=-1&$skiptoken=djE6LTE&$expand=content,,x",
		"top=0000000000000000&$count=true",
		"$filter=contains(trackingId,'a')%20eq%20false&$top=0",
		"$top=99999999999999999999999&$skip=2147483648",
		"$filter=species%20eq%20'O''Brien'%00&$expand=%27content%27",
		"$filter=%ff%fe&%zz=1&$top=%",
		"$expand=" + strings.Repeat("content,", 1000),
	} {
		f.Add(s, 500)
	}
	f.Fuzz(func(t *testing.T, raw string, maxPage int) {
		if maxPage < 1 || maxPage > 10_000 {
			maxPage = 500
		}
		v, _ := url.ParseQuery(raw)
		q, err := ParseQuery(v, testFields, maxPage)
		if err != nil {
			queryErrorFields(t, raw, err)
			return
		}
		if !q.HasTop && q.Top != 0 || q.Top < 0 || q.Top > maxPage || q.Skip < 0 || q.AfterID < 0 {
			t.Fatalf("ParseQuery(%q) = %+v: out of bounds", raw, q)
		}
		// $top=0 asks for a page of nothing; without $top a page is never empty.
		if n := q.PageSize(maxPage); n < 0 || n > maxPage || !q.HasTop && n < 1 || q.HasTop && n != q.Top {
			t.Fatalf("ParseQuery(%q): page size %d", raw, n)
		}
		const last = 1234
		next, err := ParseQuery(q.Next(last), testFields, maxPage)
		if err != nil {
			t.Fatalf("ParseQuery(%q): the next page's query %v does not parse: %v", raw, q.Next(last), err)
		}
		want := Query{Filter: q.Filter, Expand: q.Expand, AfterID: last}
		if diff := cmp.Diff(want, next); diff != "" {
			t.Fatalf("ParseQuery(%q): next page reads back differently (-want +got):\n%s", raw, diff)
		}
	})
}

// FuzzParseSkipToken: a token is accepted only as SkipToken wrote it, and
// every id's token reads back as that id.
func FuzzParseSkipToken(f *testing.F) {
	for _, s := range []string{SkipToken(0), SkipToken(1234), SkipToken(math.MaxInt64), "djE6LTE", "djE6MDA", "djE6MQ==",
		"djE6MQ", "djE6MQ%3D%3D", "v1:1", "", "\x00", strings.Repeat("A", 100), "djE6MQ\n"} {
		f.Add(s, int64(len(s)))
	}
	f.Fuzz(func(t *testing.T, tok string, id int64) {
		if got, err := ParseSkipToken(tok); err != nil {
			queryErrorFields(t, tok, err)
		} else if SkipToken(got) != tok {
			t.Fatalf("ParseSkipToken(%q) = %d, whose token is %q", tok, got, SkipToken(got))
		}
		if id < 0 {
			return
		}
		if got, err := ParseSkipToken(SkipToken(id)); err != nil || got != id {
			t.Fatalf("ParseSkipToken(SkipToken(%d)) = %d, %v", id, got, err)
		}
	})
}

// FuzzParseTopSkip: $top and $skip take decimal digits only, and an
// accepted value prints back as the digits given, less leading zeros.
func FuzzParseTopSkip(f *testing.F) {
	for _, s := range []string{"10", "0", "500", "501", "0010", "-1", "+1", " 1", "1e3", "0x10", "１", "9223372036854775808", "2147483647", "2147483648", "10000", "10001", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		digits := strings.TrimLeft(s, "0")
		if digits == "" {
			digits = "0"
		}
		if n, err := parseTop(s, 500); err != nil {
			queryErrorFields(t, s, err)
		} else if n < 0 || n > 500 || strconv.Itoa(n) != digits {
			t.Fatalf("parseTop(%q) = %d", s, n)
		}
		if n, err := parseSkip(s); err != nil {
			queryErrorFields(t, s, err)
		} else if n < 0 || n > MaxSkip || strconv.Itoa(n) != digits {
			t.Fatalf("parseSkip(%q) = %d", s, n)
		}
	})
}

// FuzzParseExpand: an accepted $expand lists known names, each once, and
// reads back the same from its canonical text.
func FuzzParseExpand(f *testing.F) {
	for _, s := range []string{"content", "content, content", " content ", "", ",", "content,", "Content", "content,x", "%63ontent", "content\x00", strings.Repeat("content,", 200) + "content"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := parseExpand(s)
		if err != nil {
			queryErrorFields(t, s, err)
			return
		}
		if len(names) == 0 || len(names) > len(expansions) {
			t.Fatalf("parseExpand(%q) = %q", s, names)
		}
		back, err := parseExpand(strings.Join(names, ","))
		if err != nil || !cmp.Equal(back, names) {
			t.Fatalf("parseExpand(%q) = %q, which reads back as %q, %v", s, names, back, err)
		}
	})
}
