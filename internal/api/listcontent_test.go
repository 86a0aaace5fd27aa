package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestListingContentOnlyWhenAsked: a listing reads content only when
// $expand or $select names it, and that changes nothing else: each record
// without content is the one with content, less its content, which is the
// content a single GET shows; on both stores.
func TestListingContentOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		for i := range 3 {
			b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", i+1), nil))
		}
		list := func(query string) []map[string]json.RawMessage {
			t.Helper()
			var page struct{ Value []map[string]json.RawMessage }
			res := b.do(http.MethodGet, "/v1/TransferRequests?"+query, k1, nil)
			if res.decode(&page); res.status != http.StatusOK || len(page.Value) != 3 {
				t.Fatalf("GET ?%s: %d, %d records: %s", query, res.status, len(page.Value), res.body)
			}
			return page.Value
		}
		plain, expanded := list(""), list("$expand=content")
		selected := list("$select=requestId,content")
		for i, rec := range expanded {
			var id int64
			_ = json.Unmarshal(rec["requestId"], &id)
			var one map[string]json.RawMessage
			b.do(http.MethodGet, fmt.Sprintf("/v1/TransferRequests(%d)?$expand=content", id), k1, nil).decode(&one)
			if string(rec["content"]) != string(one["content"]) || len(rec["content"]) < 10 {
				t.Errorf("record %d's content in the listing = %s, by itself %s", id, rec["content"], one["content"])
			}
			if want := (map[string]json.RawMessage{"requestId": rec["requestId"], "content": rec["content"]}); !cmp.Equal(selected[i], want) {
				t.Errorf("$select=requestId,content: %v, want %v", selected[i], want)
			}
			if _, ok := plain[i]["content"]; ok {
				t.Errorf("record %d has content unasked", id)
			}
			delete(rec, "content")
			if diff := cmp.Diff(rec, plain[i]); diff != "" {
				t.Errorf("record %d without content differs (-expanded +plain):\n%s", id, diff)
			}
		}
	})
}

// TestContentSpeciesOnlyWhereContentHasIt: $filter may name content/species
// on transfers and corrections, whose content has a species; on reviews and
// undos, whose content has none, it is an unknown field (400 naming
// $filter), in the listing and in its /$count alike. Their species, the
// movement's, stays filterable as species.
func TestContentSpeciesOnlyWhereContentHasIt(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		filter := "?$filter=" + escape("content/species eq 'Sheep'")
		for _, tc := range []struct {
			collection string
			status     int
		}{
			{"TransferRequests", http.StatusOK},
			{"CorrectTransferRequests", http.StatusOK},
			{"ReviewHoldingMovementRequests", http.StatusBadRequest},
			{"UndoRequests", http.StatusBadRequest},
		} {
			for _, path := range []string{"/v1/" + tc.collection + filter, "/v1/" + tc.collection + "/$count" + filter} {
				res := b.do(http.MethodGet, path, k1, nil)
				if res.status != tc.status || (tc.status == http.StatusBadRequest && !strings.Contains(string(res.body), "$filter")) {
					t.Errorf("GET %s = %d %.200s, want %d", path, res.status, res.body, tc.status)
				}
			}
			if res := b.do(http.MethodGet, "/v1/"+tc.collection+"?$filter="+escape("species eq 'Sheep'"), k1, nil); res.status != http.StatusOK {
				t.Errorf("GET %s by species = %d %.200s", tc.collection, res.status, res.body)
			}
		}
	})
}
