package odata

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

const maxPage = 500

func TestParseQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string // raw is the URL's query, still encoded
		want      Query
	}{
		{"nothing", "", Query{}},
		{"the document's filter, encoded as the document says",
			"$filter=movementDate%20ge%202026-11-01T00%3b00%3b00Z%20and%20movementDate%20le%202026-11-30T23%3b59%3b59%2b00%3a00",
			Query{Filter: &And{cmpr("movementDate", Ge, utc(2026, 11, 1, 0, 0, 0)), cmpr("movementDate", Le, utc(2026, 11, 30, 23, 59, 59))}}},
		{"+ written %2b", "$filter=movementDate+ge+2026-11-01T01:00:00%2b01:00",
			Query{Filter: cmpr("movementDate", Ge, utc(2026, 11, 1, 0, 0, 0))}},
		{"$top", "$top=10", Query{Top: 10, HasTop: true}},
		{"options in any case, with or without $ (OData 4.01)", "$TOP=10&Skip=5&expand=content&$FILTER=requestId%20eq%201",
			Query{Top: 10, HasTop: true, Skip: 5, Expand: []string{"content"}, Filter: cmpr("requestId", Eq, int64(1))}},
		{"$top at the largest page", "$top=500", Query{Top: 500, HasTop: true}},
		{"$top and $skip", "$top=10&$skip=5", Query{Top: 10, HasTop: true, Skip: 5}},
		{"$skip larger than $top", "$top=2&$skip=1000", Query{Top: 2, HasTop: true, Skip: 1000}},
		{"$skip at MaxSkip", "$top=2&$skip=10000", Query{Top: 2, HasTop: true, Skip: 10000}},
		{"$skip=0", "$skip=0", Query{}},
		{"$skiptoken", "$skiptoken=" + SkipToken(1234), Query{AfterID: 1234}},
		{"$expand", "$expand=content", Query{Expand: []string{"content"}}},
		{"$expand twice the same", "$expand=content,%20content", Query{Expand: []string{"content"}}},
		{"parameters of the endpoint are left alone", "species=Sheep&holding=12%2f345%2f6789&$top=1", Query{Top: 1, HasTop: true}},
		{"everything", "$filter=species%20eq%20'Sheep'&$top=20&$skip=40&$skiptoken=" + SkipToken(9) + "&$expand=content",
			Query{Filter: cmpr("species", Eq, "Sheep"), Top: 20, HasTop: true, Skip: 40, AfterID: 9, Expand: []string{"content"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := url.ParseQuery(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseQuery(v, testFields, maxPage)
			if err != nil {
				t.Fatalf("ParseQuery(%q): %v", tt.raw, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseQuery(%q) (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
}

func TestParseQueryErrors(t *testing.T) {
	t.Parallel()
	bad := func(option, value, message string) livestock.FieldError {
		return livestock.FieldError{Code: livestock.CodeBadQuery, Message: message, Source: "query:" + option, Value: value}
	}
	const topRange = "$top must be a whole number from 0 to 500"
	const skipRange = "$skip must be a whole number from 0 to 10000; to read further, leave out $top and follow " +
		"@odata.nextLink, or narrow the results with $filter"
	const notGiven = "$skiptoken is not one this service gave out; follow @odata.nextLink as it is given"
	tests := []struct {
		name, raw string
		want      []livestock.FieldError
	}{
		{"$top above the largest page", "$top=501", []livestock.FieldError{{Code: livestock.CodePageTooLarge,
			Message: "$top must be at most 500, the largest results page", Source: "query:$top", Value: "501"}}},
		{"$top far above", "$top=99999999999999999999999", []livestock.FieldError{{Code: livestock.CodePageTooLarge,
			Message: "$top must be at most 500, the largest results page", Source: "query:$top", Value: "99999999999999999999999"}}},
		{"negative $top", "$top=-1", []livestock.FieldError{bad("$top", "-1", topRange)}},
		{"non-numeric $top", "$top=ten", []livestock.FieldError{bad("$top", "ten", topRange)}},
		{"$top with a +", "$top=+5", []livestock.FieldError{bad("$top", " 5", topRange)}},
		{"empty $top", "$top=", []livestock.FieldError{bad("$top", "", topRange)}},
		{"fractional $top", "$top=1.5", []livestock.FieldError{bad("$top", "1.5", topRange)}},
		{"negative $skip", "$skip=-5", []livestock.FieldError{bad("$skip", "-5", skipRange)}},
		{"non-numeric $skip", "$skip=five", []livestock.FieldError{bad("$skip", "five", skipRange)}},
		{"huge $skip", "$skip=2147483648", []livestock.FieldError{bad("$skip", "2147483648", skipRange)}},
		{"$skip past MaxSkip", "$skip=10001", []livestock.FieldError{bad("$skip", "10001", skipRange)}},
		{"made-up $skiptoken", "$skiptoken=abc", []livestock.FieldError{bad("$skiptoken", "abc", notGiven)}},
		{"$skiptoken of the plain id", "$skiptoken=1234", []livestock.FieldError{bad("$skiptoken", "1234", notGiven)}},
		{"$skiptoken of another version", "$skiptoken=djI6MTIzNA", []livestock.FieldError{bad("$skiptoken", "djI6MTIzNA", notGiven)}},
		{"unknown $expand", "$expand=devices", []livestock.FieldError{bad("$expand", "devices",
			"devices cannot be expanded; the expansions are: content")}},
		{"$expand with options", "$expand=content($select=species)", []livestock.FieldError{bad("$expand", "content($select=species)",
			"content($select=species): only $expand may be given inside the parentheses of $expand")}},
		{"empty $expand", "$expand=", []livestock.FieldError{bad("$expand", "",
			"$expand has an empty name; give names separated by commas, from: content")}},
		{"$orderby", "$orderby=movementDate", []livestock.FieldError{bad("$orderby", "movementDate",
			"$orderby is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand")}},
		{"$select, $count, $search, $format", "$select=species&$count=true&$search=x&$format=json", []livestock.FieldError{
			bad("$count", "true", "$count is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand"),
			bad("$format", "json", "$format is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand"),
			bad("$search", "x", "$search is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand"),
			bad("$select", "species", "$select is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand"),
		}},
		{"an option given in two spellings", "$Top=5&top=6", []livestock.FieldError{bad("$top", "5, 6",
			"$top is given 2 times (as $Top, top); give it at most once")}},
		{"an option Drover never offers, without its $", "search=x&Apply=y", []livestock.FieldError{
			bad("$apply", "y", "Apply is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand"),
			bad("$search", "x", "search is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand")}},
		{"repeated $top", "$top=5&$top=6", []livestock.FieldError{bad("$top", "5, 6", "$top is given 2 times; give it at most once")}},
		{"repeated $filter", "$filter=species%20eq%20'a'&$filter=species%20eq%20'b'", []livestock.FieldError{
			bad("$filter", "species eq 'a', species eq 'b'", "$filter is given 2 times; give it at most once")}},
		{"every broken rule at once", "$filter=colour%20eq%20'red'&$top=-1&$skip=x&$orderby=id", []livestock.FieldError{
			{Code: livestock.CodeFilterField, Message: "at character 1: colour cannot be filtered on; the fields are " + allowed,
				Source: "query:$filter", Value: "colour"},
			bad("$top", "-1", topRange),
			bad("$skip", "x", skipRange),
			bad("$orderby", "id", "$orderby is not supported; the query options are $filter, $top, $skip, $skiptoken and $expand"),
		}},
		{"+ in a date-time not encoded", "$filter=movementDate%20ge%202026-11-01T01:00:00+01:00", []livestock.FieldError{
			{Code: livestock.CodeFilterSyntax, Message: "at character 36: movementDate has a space where the offset's sign should be: in a URL query + is read as a space, so write + as %2b, e.g. 2026-11-01T00:00:00%2b01:00",
				Source: "query:$filter", Value: "2026-11-01T01:00:00 01:00"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := url.ParseQuery(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			q, err := ParseQuery(v, testFields, maxPage)
			if err == nil {
				t.Fatalf("ParseQuery(%q) = %+v, want an error", tt.raw, q)
			}
			if diff := cmp.Diff(tt.want, fieldErrors(t, err)); diff != "" {
				t.Errorf("ParseQuery(%q) error (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
}

func TestParseQueryDetail(t *testing.T) {
	t.Parallel()
	tests := []struct{ raw, want string }{
		{"$top=x", "$top cannot be used"},
		{"$filter=x", "$filter cannot be used"},
		{"$top=x&$skip=x", "the query options cannot be used"},
	}
	for _, tt := range tests {
		v, _ := url.ParseQuery(tt.raw)
		_, err := ParseQuery(v, testFields, maxPage)
		e, ok := err.(*livestock.Error)
		if !ok || e.Detail != tt.want {
			t.Errorf("ParseQuery(%q) = %v, want Detail %q", tt.raw, err, tt.want)
		}
	}
}

func TestPageSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q    Query
		want int
	}{
		{Query{}, maxPage},
		{Query{Top: 10, HasTop: true}, 10},
		{Query{Top: 0, HasTop: true}, 0}, // a page of nothing, for $count alone
		{Query{Top: maxPage, HasTop: true}, maxPage},
		{Query{Top: maxPage + 1, HasTop: true}, maxPage}, // never above the largest page
		{Query{Skip: 5}, maxPage},
	}
	for _, tt := range tests {
		if got := tt.q.PageSize(maxPage); got != tt.want {
			t.Errorf("%+v.PageSize(%d) = %d, want %d", tt.q, maxPage, got, tt.want)
		}
	}
}

func TestSkipToken(t *testing.T) {
	t.Parallel()
	for _, id := range []int64{0, 1, 42, 1 << 40, 9223372036854775807} {
		tok := SkipToken(id)
		if strings.ContainsAny(tok, "+/=%:") {
			t.Errorf("SkipToken(%d) = %q, which needs encoding in a URL", id, tok)
		}
		got, err := ParseSkipToken(tok)
		if err != nil || got != id {
			t.Errorf("ParseSkipToken(SkipToken(%d)) = %d, %v", id, got, err)
		}
	}
	if tok := SkipToken(1234); tok != "djE6MTIzNA" {
		t.Errorf("SkipToken(1234) = %q; the format of tokens already given out must not change", tok)
	}
	for _, tok := range []string{
		"", "1234", "djE6MTIzNA==", // padded
		"djE6MDEyMzQ",                    // v1:01234, not as SkipToken writes it
		"djE6LTE",                        // v1:-1
		"djE6",                           // v1:
		"djE6OTIyMzM3MjAzNjg1NDc3NTgwOA", // v1:9223372036854775808
		"djE6MTIzNA" + strings.Repeat("A", 100),
	} {
		if id, err := ParseSkipToken(tok); err == nil {
			t.Errorf("ParseSkipToken(%q) = %d, want an error", tok, id)
		}
	}
}

func TestNext(t *testing.T) {
	t.Parallel()
	v, _ := url.ParseQuery("$filter=movementDate%20ge%202026-11-01T00%3b00%3b00%2b01%3a00&$skip=5&$expand=content&species=Sheep")
	q, err := ParseQuery(v, testFields, maxPage)
	if err != nil {
		t.Fatal(err)
	}
	next := q.Next(77)
	want := url.Values{
		"$filter":    {"movementDate ge 2026-10-31T23:00:00Z"},
		"$expand":    {"content"},
		"$skiptoken": {SkipToken(77)},
	}
	if diff := cmp.Diff(want, next); diff != "" {
		t.Errorf("Next (-want +got):\n%s", diff)
	}
	// The next link, encoded and decoded, reads back as the same query
	// from the place after 77.
	back, err := url.ParseQuery(next.Encode())
	if err != nil {
		t.Fatal(err)
	}
	q2, err := ParseQuery(back, testFields, maxPage)
	if err != nil {
		t.Fatalf("ParseQuery(next link %q): %v", next.Encode(), err)
	}
	if diff := cmp.Diff(Query{Filter: q.Filter, AfterID: 77, Expand: []string{"content"}}, q2); diff != "" {
		t.Errorf("the next page's query (-want +got):\n%s", diff)
	}
}

func TestCheckMetadataQuery(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"", "$format=xml", "$format=application/xml", "plain=left+alone"} {
		v, _ := url.ParseQuery(q)
		if err := CheckMetadataQuery(v); err != nil {
			t.Errorf("CheckMetadataQuery(%q) = %v, want nil", q, err)
		}
	}
	for q, source := range map[string]string{"$format=json": "query:$format", "$top=1": "query:$top",
		"$format=xml&$format=xml": "query:$format", "$filter=requestId+eq+1": "query:$filter"} {
		v, _ := url.ParseQuery(q)
		var e *livestock.Error
		if err := CheckMetadataQuery(v); !errors.As(err, &e) || len(e.Fields) != 1 ||
			e.Fields[0].Code != livestock.CodeBadQuery || e.Fields[0].Source != source {
			t.Errorf("CheckMetadataQuery(%q) = %v, want one S009 at %s", q, err, source)
		}
	}
}

// TestOfferedNamedInMessages: a refusal names what the endpoint takes,
// as a sentence, whether that is several options or one.
func TestOfferedNamedInMessages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		c    Collection
		want string
	}{
		{Collection{Format: true, Single: true}, "$top is not supported; the only query option is $format"},
		{Collection{Single: true}, "$top is not supported; it takes no query option"},
		{Collection{Format: true, Count: true, Single: true}, "$top is not supported; the query options are $count and $format"},
	} {
		_, err := Parse(url.Values{"$top": {"1"}}, tc.c)
		if fields := fieldErrors(t, err); len(fields) != 1 || fields[0].Message != tc.want {
			t.Errorf("%+v: %v, want %q", tc.c, fields, tc.want)
		}
	}
}

// TestSkipTokenWhereNoPaging: where $skiptoken is not offered, any token,
// well-formed or not, is refused as not supported, not as not given out.
func TestSkipTokenWhereNoPaging(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{"x", SkipToken(5)} {
		_, err := Parse(url.Values{"$skiptoken": {tok}}, Collection{Format: true, Single: true})
		want := []livestock.FieldError{{Code: livestock.CodeBadQuery, Source: "query:$skiptoken", Value: tok,
			Message: "$skiptoken is not supported; the only query option is $format"}}
		if diff := cmp.Diff(want, fieldErrors(t, err)); diff != "" {
			t.Errorf("$skiptoken=%s (-want +got):\n%s", tok, diff)
		}
	}
}
