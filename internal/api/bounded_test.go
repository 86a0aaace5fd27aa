package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestBoundedAnswers: a transfer of 30,000 unknown tags stores at most
// movements.MaxStoredErrors errors and then one with the live code 40;
// ten of them list within the byte budget a page, and with their content
// expanded the pages end early and @odata.nextLink goes on until every
// request has been listed once.
func TestBoundedAnswers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("ten transfers of 30,000 tags")
	}
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	// Three groups of 10,000 devices, the most a group may hold.
	move := transfer(day(-1), farm1, farm2, farm1, nil, nil)
	var groups []map[string]any
	for g := range 3 {
		tags := make([]int, 10000)
		for i := range tags {
			tags[i] = g*10000 + i + 1
		}
		groups = append(groups, map[string]any{"devices": sheep("999999", tags...)})
	}
	move["movementGroups"], move["animalCount"] = groups, 30000
	const sent = 10
	for range sent {
		rec := b.submit(k1, "TransferRequests", move)
		errs, _ := rec.codes()
		if rec.RequestStatus != "Fail" || len(errs) != movements.MaxStoredErrors+1 || errs[len(errs)-1] != "40" {
			t.Fatalf("transfer of 30,000 unknown tags: %s with %d errors, the last %q; want Fail, %d errors, the last 40",
				rec.RequestStatus, len(errs), errs[len(errs)-1], movements.MaxStoredErrors+1)
		}
	}

	var page struct {
		Value    []record
		NextLink string `json:"@odata.nextLink"`
	}
	res := b.do(http.MethodGet, "/v1/TransferRequests", k1, nil)
	res.decode(&page)
	if res.status != http.StatusOK || len(page.Value) != sent || len(res.body) > api.DefaultPageBytes {
		t.Fatalf("the sender's listing: %d, %d items in %d bytes; want %d items within %d", res.status, len(page.Value), len(res.body), sent, api.DefaultPageBytes)
	}

	seen, pages := map[int64]bool{}, 0
	for next := "/v1/TransferRequests?$expand=content"; next != ""; pages++ {
		if pages > sent {
			t.Fatalf("more than %d pages", sent)
		}
		res := b.do(http.MethodGet, next, k1, nil)
		page.NextLink, page.Value = "", nil
		res.decode(&page)
		if res.status != http.StatusOK || len(page.Value) == 0 || len(page.Value) > 1 && len(res.body) > api.DefaultPageBytes {
			t.Fatalf("GET %s: %d, %d items in %d bytes; want more than one item only within %d bytes", next, res.status, len(page.Value), len(res.body), api.DefaultPageBytes)
		}
		for _, r := range page.Value {
			if seen[r.RequestID] {
				t.Errorf("request %d listed twice", r.RequestID)
			}
			seen[r.RequestID] = true
		}
		next = strings.TrimPrefix(page.NextLink, b.url)
	}
	if len(seen) != sent || pages < 2 {
		t.Errorf("expanded listing: %d requests over %d pages; want %d over more than one", len(seen), pages, sent)
	}
}

// TestPageByteBudgetWithTop: a page asked for with $top holds every item
// asked for, sent in parts when it outgrows the byte budget, and has no
// @odata.nextLink (livestock-movements.md, result sets 4 and 5): a client
// paging with $top and $skip misses nothing.
func TestPageByteBudgetWithTop(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{MaxPageBytes: 1500})
	k1 := b.token("keeper1")
	var ids []int64
	for i := range 5 {
		ids = append(ids, b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", i+1), nil)).RequestID)
	}
	var page struct {
		Value    []record
		NextLink *string `json:"@odata.nextLink"`
	}
	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"$top=5&$expand=content", ids},
		{"$top=3&$skip=1&$expand=content", ids[1:4]},
		{"$top=3&$skip=2&$expand=content&$orderby=requestId desc", []int64{ids[2], ids[1], ids[0]}},
	} {
		res := b.do(http.MethodGet, "/v1/TransferRequests?"+strings.ReplaceAll(tc.query, " ", "%20"), k1, nil)
		page.Value, page.NextLink = nil, nil
		res.decode(&page)
		var got []int64
		for _, r := range page.Value {
			got = append(got, r.RequestID)
		}
		if res.status != http.StatusOK || !slices.Equal(got, tc.want) || page.NextLink != nil || len(res.body) <= 1500 {
			t.Errorf("GET ?%s: %d, ids %v, nextLink %v, %d bytes; want ids %v, no nextLink, past the 1500-byte budget",
				tc.query, res.status, got, page.NextLink, len(res.body), tc.want)
		}
	}
}
