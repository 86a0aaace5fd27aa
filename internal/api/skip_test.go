package api_test

import (
	"net/http"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestSkipBound: $skip pages as OData says up to odata.MaxSkip; past it
// the answer is the live error for a query option (31003 at $skip),
// since a $skip costs what it skips; on both stores.
func TestSkipBound(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		var ids []int64
		for i := range 3 {
			ids = append(ids, b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", i+1), nil)).RequestID)
		}
		var page struct{ Value []record }
		res := b.do(http.MethodGet, "/v1/TransferRequests?$top=1&$skip=1", k1, nil)
		if res.decode(&page); res.status != http.StatusOK || len(page.Value) != 1 || page.Value[0].RequestID != ids[1] {
			t.Errorf("$top=1&$skip=1: %d %s; want request %d alone", res.status, res.body, ids[1])
		}
		page.Value = nil
		res = b.do(http.MethodGet, "/v1/TransferRequests?$top=5&$skip=10000", k1, nil)
		if res.decode(&page); res.status != http.StatusOK || len(page.Value) != 0 {
			t.Errorf("$skip=10000: %d %s; want 200 with no records", res.status, res.body)
		}
		res = b.do(http.MethodGet, "/v1/TransferRequests?$top=5&$skip=10001", k1, nil)
		var got liveBody
		if res.decode(&got); res.status != http.StatusBadRequest || got.Error.Code != "31003" || got.Error.Target != "$skip" {
			t.Errorf("$skip=10001: %d %s; want 400 with 31003 at $skip", res.status, res.body)
		}
	})
}
