package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestODataQueryOptions checks the query options the live definition
// offers on the request collections: $orderby with an exact
// @odata.nextLink, /$count, $select, $count=true, $expand to depth 2,
// options without $ or in another case, and OData-Version on answers.
func TestODataQueryOptions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{MaxPage: 3})
		k1 := b.token("keeper1")
		var ids []int64
		for i := range 8 {
			var rec record
			// Transfer dates tie in threes, so an order by them needs the id.
			b.post(k1, "TransferRequests", map[string]any{"content": transfer(day(-9+i%3), farm1, farm2, farm1, sheep("130182", i+1), nil)}).decode(&rec)
			ids = append(ids, rec.RequestID)
		}
		type page struct {
			Value    []map[string]json.RawMessage
			NextLink string `json:"@odata.nextLink"`
			Context  string `json:"@odata.context"`
			Count    *int64 `json:"@odata.count"`
		}
		get := func(path string) (page, response) {
			t.Helper()
			var p page
			res := b.do(http.MethodGet, path, k1, nil)
			if res.status != http.StatusOK {
				t.Fatalf("GET %s = %d %s", path, res.status, res.body)
			}
			if v := res.header.Get("OData-Version"); v != "4.0" {
				t.Errorf("GET %s: OData-Version %q, want 4.0", path, v)
			}
			res.decode(&p)
			return p, res
		}
		idOf := func(item map[string]json.RawMessage) (id int64) {
			_ = json.Unmarshal(item["requestId"], &id)
			return id
		}
		walk := func(path string) (out []int64) {
			t.Helper()
			for range 20 {
				p, _ := get(path)
				for _, item := range p.Value {
					out = append(out, idOf(item))
				}
				if p.NextLink == "" {
					return out
				}
				path = strings.TrimPrefix(p.NextLink, b.url)
			}
			t.Fatalf("%s: nextLink does not end", path)
			return nil
		}
		// Newest first, by $orderby, page by page.
		desc := slices.Clone(ids)
		slices.Reverse(desc)
		if got := walk("/v1/TransferRequests?$orderby=requestId%20desc"); fmt.Sprint(got) != fmt.Sprint(desc) {
			t.Errorf("$orderby=requestId desc walked %v, want %v", got, desc)
		}
		// Latest movement date first, ties in id order: every request once.
		var want []int64
		for d := 2; d >= 0; d-- {
			for i, id := range ids {
				if i%3 == d {
					want = append(want, id)
				}
			}
		}
		if got := walk("/v1/TransferRequests?orderby=movementDate%20desc&$select=requestId"); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("orderby=movementDate desc walked %v, want %v", got, want)
		}
		// $select keeps the members named, and says so in the context.
		p, _ := get("/v1/TransferRequests?$select=requestId,requestStatus&$TOP=2")
		if len(p.Value) != 2 || p.NextLink != "" || !strings.HasSuffix(p.Context, "#TransferRequests(requestId,requestStatus)") {
			t.Errorf("$select with $TOP=2: %d items, next %q, context %q", len(p.Value), p.NextLink, p.Context)
		}
		for _, item := range p.Value {
			if len(item) != 2 || item["requestId"] == nil || item["requestStatus"] == nil {
				t.Errorf("$select=requestId,requestStatus gave %v", item)
			}
		}
		// /$count and $count=true count what the listing pages through.
		filter := url.QueryEscape(fmt.Sprintf("requestId gt %d and isContentPurged eq false", ids[2]))
		res := b.do(http.MethodGet, "/v1/TransferRequests/$count?$filter="+filter, k1, nil)
		if v := res.header.Get("OData-Version"); res.status != http.StatusOK || v != "4.0" {
			t.Errorf("/$count: %d, OData-Version %q", res.status, v)
		}
		if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") || string(res.body) != "5" {
			t.Errorf("/$count = %q (%s), want 5 as text", res.body, ct)
		}
		p, _ = get("/v1/TransferRequests?$count=true&$filter=" + filter)
		if p.Count == nil || *p.Count != 5 || len(p.Value) != 3 {
			t.Errorf("$count=true: count %v, %d items, want 5 and a page of 3", p.Count, len(p.Value))
		}
		// $top=0 is a page of nothing: with $count=true, the count alone.
		for _, path := range []string{"/v1/TransferRequests?$top=0&$count=true&$filter=" + filter,
			"/v1/ApprovedMovements?$top=0&$count=true", "/v1/TransferRequests?$top=0&$skip=2&$orderby=requestId%20desc&$count=true&$filter=" + filter} {
			p, _ = get(path)
			if p.Count == nil || p.Value == nil || len(p.Value) != 0 || p.NextLink != "" {
				t.Errorf("%s: count %v, %d items, next %q; want a count, no items, no next link", path, p.Count, len(p.Value), p.NextLink)
			}
		}
		if p, _ = get("/v1/TransferRequests?$top=0&$count=true&$filter=" + filter); p.Count == nil || *p.Count != 5 {
			t.Errorf("$top=0&$count=true: count %v, want 5", p.Count)
		}
		// A boolean alone is a condition, as OData reads it.
		bare := url.QueryEscape(fmt.Sprintf("requestId gt %d and not isContentPurged", ids[2]))
		p, _ = get("/v1/TransferRequests?$count=true&$filter=" + bare)
		if p.Count == nil || *p.Count != 5 {
			t.Errorf("$filter=…not isContentPurged: count %v, want 5", p.Count)
		}
		// $expand reaches depth 2, in either form.
		p, _ = get("/v1/TransferRequests?$expand=content($expand=movementGroups)&top=1")
		if len(p.Value) != 1 || p.Value[0]["content"] == nil {
			t.Errorf("$expand=content($expand=movementGroups) gave %v", p.Value)
		}
		_, res = get(fmt.Sprintf("/v1/TransferRequests(%d)?$select=requestId&$expand=content/movementGroups", ids[0]))
		var one map[string]json.RawMessage
		res.decode(&one)
		if one["content"] == nil || one["requestId"] == nil || one["userName"] != nil {
			t.Errorf("one request with $select and $expand: %s", res.body)
		}
		// Refusals name the option, and are OData answers too.
		for _, tc := range []struct{ query, source string }{
			{"$expand=content($expand=movementGroups($expand=devices))", "query:$expand"},
			{"$orderby=requestId,userName,requestDate,updatedDate,species,requestStatus", "query:$orderby"},
			{"$filter=" + url.QueryEscape("requestId eq 1"+strings.Repeat(" or requestId eq 1", 100)), "query:$filter"},
			{"$select=requestId,colour", "query:$select"},
			{"$top=1&TOP=2", "query:$top"},
		} {
			res := b.do(http.MethodGet, "/v1/TransferRequests?"+tc.query, k1, nil)
			if res.status != http.StatusBadRequest {
				t.Errorf("%s: %d, want 400", tc.query, res.status)
				continue
			}
			if v := res.header.Get("OData-Version"); v != "4.0" {
				t.Errorf("%s: OData-Version %q on the error", tc.query, v)
			}
			if src := res.problem().Errors[0].Source; src != tc.source {
				t.Errorf("%s: source %q, want %s", tc.query, src, tc.source)
			}
		}
		res = b.do(http.MethodGet, "/v1/TransferRequests/$count?$filter=colour%20eq%201", k1, nil)
		if res.status != http.StatusBadRequest || res.problem().Errors[0].Source != "query:$filter" {
			t.Errorf("/$count with a bad $filter: %d %s", res.status, res.body)
		}
		// One request, or a count, is no page: paging options are refused,
		// not ignored.
		first := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1), nil))
		for _, tc := range []struct{ path, source string }{
			{fmt.Sprintf("/v1/TransferRequests(%d)?$top=1", first.RequestID), "query:$top"},
			{fmt.Sprintf("/v1/TransferRequests(%d)?$skip=1", first.RequestID), "query:$skip"},
			{fmt.Sprintf("/v1/TransferRequests(%d)?$filter=requestId%%20eq%%201", first.RequestID), "query:$filter"},
			{"/v1/TransferRequests/$count?$top=1", "query:$top"},
			{"/v1/TransferRequests/$count?$skiptoken=djE6MQ", "query:$skiptoken"},
			{"/v1/ApprovedMovements(1,'Departure')?$top=1", "query:$top"},
		} {
			res := b.do(http.MethodGet, tc.path, k1, nil)
			if res.status != http.StatusBadRequest || res.problem().Errors[0].Source != tc.source {
				t.Errorf("GET %s: %d %s, want 400 naming %s", tc.path, res.status, res.body, tc.source)
			}
		}
		// eq null and ne null ask whether a field has a value; a holding is
		// never null, and null has no order.
		move := transfer(day(-1), farm1, farm2, farm1, sheep("130181", 2), nil)
		move["trackingId"] = "with-a-tracking-id"
		tracked := b.submit(k1, "TransferRequests", move)
		for _, tc := range []struct {
			filter string
			status int
			has    []int64
			hasnt  []int64
		}{
			{"trackingId eq null", 200, []int64{first.RequestID}, []int64{tracked.RequestID}},
			{"trackingId ne null", 200, []int64{tracked.RequestID}, []int64{first.RequestID}},
			{"holding eq null", 400, nil, nil},
			{"trackingId lt null", 400, nil, nil},
		} {
			res := b.do(http.MethodGet, "/v1/TransferRequests?$orderby=requestId%20desc&$filter="+url.QueryEscape(tc.filter), k1, nil)
			var page struct{ Value []record }
			if res.status == http.StatusOK {
				res.decode(&page)
			}
			var got []int64
			for _, r := range page.Value {
				got = append(got, r.RequestID)
			}
			bad := res.status != tc.status
			for _, id := range tc.has {
				bad = bad || !slices.Contains(got, id)
			}
			for _, id := range tc.hasnt {
				bad = bad || slices.Contains(got, id)
			}
			if bad {
				t.Errorf("$filter=%s: %d %v, want %d with %v and without %v", tc.filter, res.status, got, tc.status, tc.has, tc.hasnt)
			}
		}
		if res := b.do(http.MethodGet, fmt.Sprintf("/v1/TransferRequests(%d)?$expand=content&$select=requestId", first.RequestID), k1, nil); res.status != http.StatusOK {
			t.Errorf("one request with $expand and $select: %d %s", res.status, res.body)
		}
		for _, expand := range []string{"reviewDevices", "reviewBatches", "content", "reviewDevices,reviewBatches"} {
			path := "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='01%2F100%2F0264')?$expand=" + expand
			if res := b.do(http.MethodGet, path, b.token("keeper2"), nil); res.status != http.StatusOK {
				t.Errorf("GET %s: %d %s", path, res.status, res.body)
			}
		}
	})
}

// TestFilterFunctions: contains, startswith and endswith on a free-text
// field, as a client generated from the live definitions ("allfunctions")
// writes them, letter case exact; @odata.nextLink carries the function on;
// a function not offered, or of a field that is not free text, is a 400
// naming it.
func TestFilterFunctions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{MaxPage: 1})
		k1 := b.token("keeper1")
		var ids []int64
		for i, tracking := range []string{"lot-2026-A", "lot-2026-B", "LOT-2027", "x"} {
			content := transfer(day(-3), farm1, farm2, farm1, sheep("130182", i+1), nil)
			content["trackingId"] = tracking
			var rec record
			b.post(k1, "TransferRequests", map[string]any{"content": content}).decode(&rec)
			ids = append(ids, rec.RequestID)
		}
		walk := func(filter string) []int64 {
			return b.walk(k1, "/v1/TransferRequests?$select=requestId&$filter="+url.QueryEscape(filter), "requestId")
		}
		for _, tc := range []struct {
			filter string
			want   []int64
		}{
			{"contains(trackingId,'2026')", ids[:2]},
			{"startswith(trackingId,'lot-')", ids[:2]},
			{"startswith(trackingId, 'LOT')", ids[2:3]},
			{"endswith(trackingId,'B') or endswith(trackingId,'x')", []int64{ids[1], ids[3]}},
			{"not contains(trackingId,'-') and startswith(userName,'keeper')", ids[3:]},
		} {
			if got := walk(tc.filter); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%s: %v, want %v", tc.filter, got, tc.want)
			}
		}
		for _, tc := range []struct{ filter, code, says string }{
			{"tolower(trackingId) eq 'x'", "S015", "tolower() is not a function"},
			{"contains(species,'ee')", "S016", "contains() takes a free-text field"},
			{"contains(trackingId,2026)", "S016", "expected a string"},
		} {
			res := b.do(http.MethodGet, "/v1/TransferRequests?$filter="+url.QueryEscape(tc.filter), k1, nil)
			if p := res.problem(); res.status != http.StatusBadRequest || len(p.Errors) != 1 || p.Errors[0].Code != tc.code ||
				!strings.Contains(p.Errors[0].Message, tc.says) {
				t.Errorf("%s: %d %s, want 400 %s saying %q", tc.filter, res.status, res.body, tc.code, tc.says)
			}
		}
	})
}
