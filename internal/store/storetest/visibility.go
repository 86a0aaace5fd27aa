package storetest

import (
	"fmt"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// Queries of the three kinds of caller of the fixture, and a stranger.
var (
	keeper1Query   = store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper1", Holdings: []livestock.CPH{farmA, farmB, abattoir}}
	keeper2Query   = store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper2", Holdings: []livestock.CPH{market}}
	inspectorQuery = store.RequestQuery{Type: store.RequestTransfer, All: true}
	strangerQuery  = store.RequestQuery{Type: store.RequestTransfer, UserName: "stranger", Holdings: []livestock.CPH{livestock.MustCPH("99/999/9999")}}
)

// manyHoldings is keeper1's query with farm B among many more holdings, as
// of an auction market's operator: the store may query it another way.
func manyHoldings() store.RequestQuery {
	q := keeper1Query
	q.Holdings = nil
	for i := range 150 {
		q.Holdings = append(q.Holdings, livestock.MustCPH(fmt.Sprintf("98/%03d/0001", i)))
	}
	q.Holdings = append(q.Holdings, farmB, farmA, abattoir, farmB)
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
	onlyHoldings := keeper2Query
	onlyHoldings.UserName = ""
	onlyUser := keeper1Query
	onlyUser.Holdings = nil
	reviews := keeper1Query
	reviews.Type = store.RequestReview
	for _, tt := range []struct {
		name string
		q    store.RequestQuery
		want []int
	}{
		{"submitter or holding", keeper1Query, []int{0, 1, 5}},
		{"holding or submitter", keeper2Query, []int{0, 1, 2}},
		{"inspector", inspectorQuery, []int{0, 1, 2, 3, 5}},
		{"neither", strangerQuery, nil},
		{"holdings only", onlyHoldings, []int{0, 1, 2}},
		{"submitter only", onlyUser, []int{0, 5}},
		{"nobody", store.RequestQuery{Type: store.RequestTransfer}, nil},
		{"other type", reviews, []int{4}},
		{"many holdings", manyHoldings(), []int{0, 1, 5}},
	} {
		list := requests(t, s, tt.q)
		wantIDs(t, tt.name, ids(list), pick(got, tt.want...))
		for _, r := range list {
			if r.ID == got[5] && len(r.Holdings) != 3 {
				t.Errorf("%s: holdings of request %d = %v; want all three", tt.name, r.ID, r.Holdings)
			}
		}
	}
	// The filter applies within what the caller may see.
	q := keeper2Query
	q.Filter = &odata.Comparison{Field: "userName", Op: odata.Ne, Value: "keeper2"}
	wantIDs(t, "keeper2's view, filtered", ids(requests(t, s, q)), pick(got, 0, 2))
}

// testKeysetPaging walks the pages of each caller while requests are
// added between pages: no request is seen twice or missed.
func testKeysetPaging(t *testing.T, s store.Store) {
	for i := range 10 {
		addRequests(t, s, transfer("keeper1", farmA), transfer([]string{"keeper2", "other"}[i%2], market))
	}
	for _, q := range []store.RequestQuery{keeper1Query, keeper2Query, inspectorQuery} {
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
// including a request that is visible through several branches.
func testOffsetLimit(t *testing.T, s store.Store) {
	var all []int64
	for range 5 {
		all = append(all, addRequests(t, s,
			transfer("keeper1", farmA, farmB), // visible twice over to keeper1
			transfer("keeper2", abattoir))...)
	}
	for _, q := range []store.RequestQuery{keeper1Query, manyHoldings(), inspectorQuery} {
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
