package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestAuthenticatedAnswersNotStored: every answer under /v1 once the
// caller is known is Cache-Control: no-store, success or error, on both
// interfaces; the schema, standing data and reference lists, the same
// for every user, keep their own caching, and answers before
// authentication theirs. A shared proxy or the browser's disk cache must not hand one
// keeper's requests and animals to the next user of the cache.
func TestAuthenticatedAnswersNotStored(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	sent := b.post(k1, "TransferRequests", map[string]any{"content": transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 1), nil)})
	if sent.status != http.StatusCreated {
		t.Fatalf("transfer: %d %s", sent.status, sent.body)
	}
	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		want         string
	}{
		{http.MethodGet, "/v1/me", nil, 200, "no-store"},
		{http.MethodGet, "/v1/", nil, 200, "no-store"},
		{http.MethodGet, "/v1/StandingData", nil, 200, "no-store"},
		{http.MethodGet, "/v1/TransferRequests", nil, 200, "no-store"},
		{http.MethodGet, "/v1/TransferRequests/$count", nil, 200, "no-store"},
		{http.MethodGet, "/v1/TransferRequests(999999)", nil, 404, "no-store"},
		{http.MethodGet, "/v1/ApprovedMovements", nil, 200, "no-store"},
		{http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0257')", nil, 200, "no-store"},
		{http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')", nil, 403, "no-store"},
		{http.MethodPost, "/v1/TransferRequests", map[string]any{"content": transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 2), nil)}, 201, "no-store"},
		{http.MethodPost, "/v1/TransferRequests", map[string]any{"content": map[string]any{}}, 400, "no-store"},
		{http.MethodPost, "/v1/Holdings/ValidHoldings", map[string]any{"content": map[string]any{"holdings": []string{farm1}}}, 200, "no-store"},
		{http.MethodGet, "/v1/animals/UK442501300001", nil, 200, "no-store"},
		{http.MethodGet, "/v1/animals/UK442502100001", nil, 404, "no-store"},
		{http.MethodGet, "/v1/requeststatus/00000000-0000-4000-8000-000000000000", nil, 404, "no-store"},
		{http.MethodPost, "/v1/animals", calf("UK442501"+checkDigit(t, "442501", 120)+"00120", "UK442501300001", day(-3)), 200, "no-store"},
		// The same for everyone: the schema revalidated, the lists kept
		// for an hour.
		{http.MethodGet, "/v1/$metadata", nil, 200, "no-cache"},
		{http.MethodGet, "/v1/StandingData/species", nil, 200, "max-age=3600"},
		{http.MethodGet, "/v1/breeds?species=cattle", nil, 200, "max-age=3600"},
		{http.MethodGet, "/v1/hauliers?species=sheep", nil, 200, "max-age=3600"},
		// Before authentication: the operations' own.
		{http.MethodGet, "/healthz", nil, 200, ""},
		{http.MethodGet, "/openapi.json", nil, 200, "no-cache"},
	} {
		var res response
		if tc.body == nil {
			res = b.do(tc.method, tc.path, k1, nil)
		} else if strings.HasPrefix(tc.path, "/v1/animals") {
			res = b.register(k1, tc.body)
		} else {
			res = b.post(k1, strings.TrimPrefix(tc.path, "/v1/"), tc.body)
		}
		if res.status != tc.status {
			t.Errorf("%s %s: %d, want %d: %.300s", tc.method, tc.path, res.status, tc.status, res.body)
		}
		if got := res.header.Get("Cache-Control"); got != tc.want {
			t.Errorf("%s %s (%d): Cache-Control %q, want %q", tc.method, tc.path, res.status, got, tc.want)
		}
	}
}
