package api_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestFunctionParamsInAnyOrder: OData names a function's parameters, so
// the review look-up and ByTransferDateRange answer the same whatever
// order a client writes them in; one missing or unknown is still no such
// path.
func TestFunctionParamsInAnyOrder(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1, k2 := b.token("keeper1"), b.token("keeper2")
	sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1), nil))
	if !sent.applied() {
		t.Fatalf("transfer: %s %+v", sent.RequestStatus, sent.Errors)
	}
	start, end := day(-3)+"T00:00:00Z", day(0)+"T00:00:00Z"
	for _, tc := range []struct {
		token, canonical, reordered string
	}{
		{k2, "/v1/HoldingMovementForReviews(species=Sheep,holding=" + farm2Path + ")",
			"/v1/HoldingMovementForReviews(holding=" + farm2Path + ",species=Sheep)"},
		{k2, "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='" + farm2Path + "')",
			"/v1.0/HoldingMovementForReviews/ReviewBySpecies(holding='" + farm2Path + "',species='Sheep')"},
		{k2, "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='" + farm2Path + "')",
			"/v1/HoldingMovementForReviews/ReviewBySpecies(%20species%20=%20'Sheep',%20holding='" + farm2Path + "'%20)"},
		{k1, rangePath("1", start, end, farm1Path, "null"),
			"/v1/ApprovedMovements/ByTransferDateRange(destinationHolding=null,departureHolding=" + farm1Path +
				",endTransferDate=" + end + ",startTransferDate=" + start + ",speciesId=1)"},
	} {
		want, got := b.get(tc.canonical, tc.token), rawGet(t, b, tc.reordered, tc.token)
		if want.status != http.StatusOK || got.status != http.StatusOK || string(got.body) != string(want.body) {
			t.Errorf("%s = %d %s\nwant as %s = %d %s", tc.reordered, got.status, got.body, tc.canonical, want.status, want.body)
		}
	}
	for _, path := range []string{
		"/v1/HoldingMovementForReviews(holding=" + farm2Path + ")",
		"/v1/HoldingMovementForReviews(holding=" + farm2Path + ",species=Sheep,x=1)",
		"/v1/HoldingMovementForReviews(holding=" + farm2Path + ",holding=" + farm2Path + ")",
	} {
		if res := rawGet(t, b, path, k2); res.status != http.StatusNotFound && res.status != http.StatusBadRequest {
			t.Errorf("%s = %d %s, want it refused", path, res.status, res.body)
		}
	}
}

// rawGet is a GET whose answer is not held to the document: the document
// names each function's parameters in its route's order only.
func rawGet(t *testing.T, b *bundle, path, token string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{t: t, status: res.StatusCode, header: res.Header, body: data}
}
