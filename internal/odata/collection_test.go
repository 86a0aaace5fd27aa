package odata

import (
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// testCollection offers every option, as the request collections do.
var testCollection = Collection{
	Fields: Fields{
		"requestId":          {Kind: Int},
		"requestDate":        {Kind: DateTime},
		"userName":           {Kind: String},
		"isFullUndone":       {Kind: Bool},
		"content/trackingId": {Kind: String},
		"holding":            {Kind: String, Unordered: true},
	},
	OrderBy: true, Key: []string{"requestId"},
	Members: []string{"requestId", "requestDate", "userName", "content"},
	Expand: []Expansion{{Name: "content", Nested: []Expansion{
		{Name: "movementGroups", Nested: []Expansion{{Name: "devices"}}}, {Name: "movementDocument"}}}},
	Count: true, Format: true, MaxPage: maxPage,
}

func TestParseCollection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		want      Query
	}{
		{"$select", "$select=requestId,%20userName,requestId", Query{Select: []string{"requestId", "userName"}}},
		{"$select=*", "$select=*", Query{}},
		{"$orderby", "$orderby=requestDate%20desc,userName%20asc", Query{OrderBy: []OrderItem{{"requestDate", true}, {"userName", false}}}},
		{"$orderby of the key alone is the default order", "$orderby=requestId", Query{}},
		{"$orderby of the key descending", "orderby=requestId%20DESC", Query{OrderBy: []OrderItem{{"requestId", true}}}},
		{"$count", "$Count=true", Query{Count: true}},
		{"$format", "$format=application/json;odata.metadata=minimal", Query{}},
		{"$expand at depth 2, both forms", "$expand=content($expand=movementGroups),content/movementDocument", Query{Expand: []string{"content"}}},
		{"$expand=*", "$expand=*", Query{Expand: []string{"content"}}},
		{"a path and a boolean in $filter", "$filter=content/trackingId%20eq%20'T1'%20and%20isFullUndone%20eq%20false",
			Query{Filter: &And{cmpr("content/trackingId", Eq, "T1"), cmpr("isFullUndone", Eq, false)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, _ := url.ParseQuery(tt.raw)
			got, err := Parse(v, testCollection)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.raw, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
}

func TestParseCollectionErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, raw, source, value, message string }{
		{"unknown $select member", "$select=requestId,colour", "query:$select", "colour",
			"colour is not a member that can be selected; the members are: requestId, requestDate, userName, content"},
		{"unknown $orderby field", "$orderby=colour", "query:$orderby", "colour",
			"colour cannot be sorted by; the fields are content/trackingId, isFullUndone, requestDate, requestId, userName"},
		{"unordered field", "$orderby=holding", "query:$orderby", "holding",
			"holding cannot be sorted by; the fields are content/trackingId, isFullUndone, requestDate, requestId, userName"},
		{"bad direction", "$orderby=userName%20up", "query:$orderby", "up", "up is not a direction; write asc or desc after the field"},
		{"six expressions", "$orderby=requestId,userName,requestDate,isFullUndone,content/trackingId,holding", "query:$orderby",
			"requestId,userName,requestDate,isFullUndone,content/trackingId,holding", "$orderby has 6 expressions; it may have at most 5"},
		{"depth 3 by nesting", "$expand=content($expand=movementGroups($expand=devices))", "query:$expand",
			"devices", "devices reaches deeper than $expand may: the maximum depth is 2"},
		{"depth 3 by path", "$expand=content/movementGroups/devices", "query:$expand",
			"content/movementGroups/devices", "content/movementGroups/devices reaches deeper than $expand may: the maximum depth is 2"},
		{"unknown nested member", "$expand=content/colour", "query:$expand", "colour",
			"colour cannot be expanded; the expansions are: movementGroups, movementDocument"},
		{"$count not a boolean", "$count=yes", "query:$count", "yes", "$count must be true or false"},
		{"$format xml", "format=xml", "query:$format", "xml", "$format must be json: every answer is JSON"},
		{"a default-order token under an $orderby", "$orderby=userName&$skiptoken=" + SkipToken(5), "query:$skiptoken", SkipToken(5),
			"$skiptoken is not one this service gave out for this $orderby; follow @odata.nextLink as it is given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, _ := url.ParseQuery(tt.raw)
			q, err := Parse(v, testCollection)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tt.raw, q)
			}
			want := []livestock.FieldError{{Code: livestock.CodeBadQuery, Source: tt.source, Value: tt.value, Message: tt.message}}
			if diff := cmp.Diff(want, fieldErrors(t, err)); diff != "" {
				t.Errorf("Parse(%q) error (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
	v, _ := url.ParseQuery("$orderby=" + strings.Repeat("x,", 2) + "x")
	if _, err := Parse(v, Collection{Fields: Fields{"x": {Kind: Int}}, OrderBy: true}); err == nil {
		t.Error("a field named twice in $orderby was accepted")
	}
}

// TestOrderTokens: the token of a page's last item, under an $orderby,
// reads back as the same values, and only under the same order.
func TestOrderTokens(t *testing.T) {
	t.Parallel()
	v, _ := url.ParseQuery("$orderby=requestDate%20desc,content/trackingId,isFullUndone")
	q, err := Parse(v, testCollection)
	if err != nil {
		t.Fatal(err)
	}
	order := q.Order("requestId")
	want := []OrderItem{{"requestDate", true}, {"content/trackingId", false}, {"isFullUndone", false}, {"requestId", false}}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Fatalf("Order (-want +got):\n%s", diff)
	}
	keys := []any{utc(2026, 11, 1, 9, 30, 0), nil, true, int64(42)}
	tok := q.Token([]string{"requestId"}, 42, keys)
	v.Set("$skiptoken", tok)
	next, err := Parse(v, testCollection)
	if err != nil {
		t.Fatalf("the next page's query does not parse: %v", err)
	}
	if diff := cmp.Diff(keys, next.After); diff != "" {
		t.Errorf("After (-want +got):\n%s", diff)
	}
	v.Set("$orderby", "requestDate desc")
	if _, err := Parse(v, testCollection); err == nil {
		t.Error("a token was read under another $orderby")
	}
	v.Del("$orderby")
	if _, err := Parse(v, testCollection); err == nil {
		t.Error("an $orderby token was read in the default order")
	}
}

// TestCompositeKey: a key of two fields (an approved movement's id and
// recordedBy) ends every order; $orderby of its first field, or of all
// of it ascending, is the default order; a token holds both.
func TestCompositeKey(t *testing.T) {
	t.Parallel()
	c := Collection{Fields: Fields{"id": {Kind: Int}, "recordedBy": {Kind: String}, "transferDate": {Kind: DateTime}},
		OrderBy: true, Key: []string{"id", "recordedBy"}, MaxPage: maxPage}
	for raw, want := range map[string][]OrderItem{
		"$orderby=id":                   nil,
		"$orderby=id,recordedBy%20asc":  nil,
		"$orderby=id%20desc":            {{"id", true}, {"recordedBy", false}},
		"$orderby=recordedBy":           {{"recordedBy", false}, {"id", false}},
		"$orderby=transferDate%20desc":  {{"transferDate", true}, {"id", false}, {"recordedBy", false}},
		"$orderby=recordedBy%20desc,id": {{"recordedBy", true}, {"id", false}},
	} {
		v, _ := url.ParseQuery(raw)
		q, err := Parse(v, c)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if diff := cmp.Diff(want, q.Order(c.Key...)); diff != "" {
			t.Errorf("%s: Order (-want +got):\n%s", raw, diff)
		}
	}
	v, _ := url.ParseQuery("$orderby=transferDate%20desc")
	q, _ := Parse(v, c)
	keys := []any{utc(2026, 3, 2, 0, 0, 0), int64(7), "Destination"}
	v.Set("$skiptoken", q.Token(c.Key, 15, keys))
	next, err := Parse(v, c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(keys, next.After); diff != "" {
		t.Errorf("After (-want +got):\n%s", diff)
	}
}
