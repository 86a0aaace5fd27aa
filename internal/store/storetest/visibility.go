package storetest

import (
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// Queries of the three kinds of caller of the fixture, and a stranger.
var (
	keeper1Query   = store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper1"}
	keeper2Query   = store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper2"}
	inspectorQuery = store.RequestQuery{Type: store.RequestTransfer, All: true}
	strangerQuery  = store.RequestQuery{Type: store.RequestTransfer, UserName: "stranger"}
)

// tracing is an inspector's query for the transfers that concern holding
// h: the store may read them from the holding's index.
func tracing(h livestock.CPH) store.RequestQuery {
	return store.RequestQuery{Type: store.RequestTransfer, All: true, Filter: cmpf("holding", odata.Eq, h.String())}
}

// filtered is q with filter f added to its own.
func filtered(q store.RequestQuery, f odata.Expr) store.RequestQuery {
	switch {
	case q.Filter == nil:
		q.Filter = f
	case f != nil:
		q.Filter = and(f, q.Filter)
	}
	return q
}

// requests lists the requests of q, failing the test on an error.
func requests(t *testing.T, s store.Store, q store.RequestQuery) []store.Request {
	t.Helper()
	list, err := s.Requests(ctx(t), q)
	must(t, "Requests", err)
	return list
}

func testVisibility(t *testing.T, s store.Store) {
	review := transfer("keeper1", farmA)
	review.Type = store.RequestReview
	got := addRequests(t, s,
		transfer("keeper1", farmA, market),          // 0: keeper1's, about keeper2's market
		transfer("keeper2", market, farmB),          // 1: keeper2's, about keeper1's farm B
		transfer("other", market),                   // 2: about the market only
		transfer("other"),                           // 3: about no one's holding
		review,                                      // 4: another type
		transfer("keeper1", farmA, farmB, abattoir), // 5: keeper1's, about three of theirs
	)
	reviews := keeper1Query
	reviews.Type = store.RequestReview
	for _, tt := range []struct {
		name string
		q    store.RequestQuery
		want []int
	}{
		{"submitter", keeper1Query, []int{0, 5}},
		{"submitter, not the holding's keeper", keeper2Query, []int{1}},
		{"inspector", inspectorQuery, []int{0, 1, 2, 3, 5}},
		{"neither", strangerQuery, nil},
		{"nobody", store.RequestQuery{Type: store.RequestTransfer}, nil},
		{"other type", reviews, []int{4}},
		{"inspector tracing the market", tracing(market), []int{0, 1, 2}},
		{"inspector tracing farm B", tracing(farmB), []int{1, 5}},
		{"inspector tracing the market, not keeper2's", filtered(tracing(market), cmpf("userName", odata.Ne, "keeper2")), []int{0, 2}},
		{"keeper1 filtering by the market", filtered(keeper1Query, cmpf("holding", odata.Eq, market.String())), []int{0}},
		{"keeper2 filtering by their market", filtered(keeper2Query, cmpf("holding", odata.Eq, market.String())), []int{1}},
	} {
		list := requests(t, s, tt.q)
		wantIDs(t, tt.name, ids(list), pick(got, tt.want...))
		for _, r := range list {
			if r.ID == got[5] && len(r.Holdings) != 3 {
				t.Errorf("%s: holdings of request %d = %v; want all three", tt.name, r.ID, r.Holdings)
			}
		}
	}
}

// testKeysetPaging walks the pages of each caller while requests are
// added between pages: no request is seen twice or missed.
func testKeysetPaging(t *testing.T, s store.Store) {
	for i := range 10 {
		addRequests(t, s, transfer("keeper1", farmA), transfer([]string{"keeper2", "other"}[i%2], market))
	}
	for _, q := range []store.RequestQuery{keeper1Query, keeper2Query, inspectorQuery, tracing(market)} {
		q.Limit = 3
		var seen []int64
		for page := 0; ; page++ {
			list := requests(t, s, q)
			if len(list) == 0 {
				break
			}
			if len(list) > q.Limit {
				t.Fatalf("%s: page of %d, over the limit %d", q.UserName, len(list), q.Limit)
			}
			seen = append(seen, ids(list)...)
			q.AfterID = list[len(list)-1].ID
			if page < 4 {
				addRequests(t, s, transfer("keeper1", market), transfer("keeper2", farmB))
			}
		}
		q.AfterID, q.Limit = 0, 0
		wantIDs(t, "pages of "+q.UserName, seen, ids(requests(t, s, q)))
	}
}

// testOffsetLimit checks $skip and $top, alone and after a skip token,
// for each kind of caller.
func testOffsetLimit(t *testing.T, s store.Store) {
	var all []int64
	for range 5 {
		all = append(all, addRequests(t, s, transfer("keeper1", farmA, farmB), transfer("keeper1", abattoir, farmB))...)
	}
	addRequests(t, s, transfer("keeper2", farmA)) // seen by the inspector only
	for _, q := range []store.RequestQuery{keeper1Query, tracing(farmB), filtered(inspectorQuery, cmpf("userName", odata.Eq, "keeper1"))} {
		for _, tt := range []struct {
			after         int64
			offset, limit int
			want          []int64
		}{
			{0, 0, 3, all[:3]},
			{0, 2, 3, all[2:5]},
			{all[3], 1, 2, all[5:7]},
			{all[3], 0, 0, all[4:]},
			{0, 8, 0, all[8:]},
			{0, 9, 5, all[9:]},
			{0, 10, 5, nil},
			{all[9], 0, 5, nil},
		} {
			q.AfterID, q.Offset, q.Limit = tt.after, tt.offset, tt.limit
			wantIDs(t, "page", ids(requests(t, s, q)), tt.want)
		}
	}
}
