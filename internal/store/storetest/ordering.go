package storetest

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// orderRequests are requests whose members tie often and are often none,
// so that an order over them needs every field and the id to be total.
// Text values are lower-case letters and digits, which sort alike under
// every collation.
func orderRequests() []store.Request {
	species := []livestock.Species{0, livestock.SpeciesSheep, livestock.SpeciesGoats, livestock.SpeciesDeer}
	var rs []store.Request
	for i := range 11 {
		r := transfer([]string{"keeper1", "keeper2"}[i%2], farmA)
		r.RequestDate = base.Add(time.Duration(i%3) * time.Hour)
		r.UpdatedDate = base.Add(time.Duration(i%4) * time.Hour)
		r.IsFullUndone = i%2 == 0
		r.Species = species[i%4]
		if i%3 != 0 {
			r.TrackingID = fmt.Sprintf("t%02d", (i*7)%11)
		}
		rs = append(rs, r)
	}
	return rs
}

// compareBy compares two requests in order as OData does: none first
// ascending, last descending.
func compareBy(order []odata.OrderItem) func(a, b store.Request) int {
	return func(a, b store.Request) int {
		for _, o := range order {
			c := compareValues(a.Value(o.Field), b.Value(o.Field))
			if o.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	}
}

func compareValues(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch a := a.(type) {
	case string:
		return cmp.Compare(a, b.(string))
	case int64:
		return cmp.Compare(a, b.(int64))
	case time.Time:
		return a.Compare(b.(time.Time))
	case bool:
		return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) // false < true
	}
	panic(fmt.Sprintf("no order for %T", a))
}

// testRequestOrder: a listing in an order of the caller's comes in that
// order, and paging it by the values of each page's last item walks every
// request once, whatever ties.
func testRequestOrder(t *testing.T, s store.Store) {
	addRequests(t, s, orderRequests()...)
	other := transfer("keeper1")
	other.Type = store.RequestUndo
	addRequests(t, s, other) // another type: never listed
	id := odata.OrderItem{Field: "requestId"}
	for _, order := range [][]odata.OrderItem{
		{{Field: "requestDate", Desc: true}, id},
		{{Field: "content/trackingId"}, id},
		{{Field: "trackingId", Desc: true}, {Field: "requestDate"}, id},
		{{Field: "isFullUndone"}, {Field: "requestDate", Desc: true}, {Field: "species"}, id},
		{{Field: "content/species", Desc: true}, id},
		{{Field: "requestId", Desc: true}},
		{{Field: "updatedDate"}, {Field: "userName", Desc: true}, {Field: "isContentPurged", Desc: true}, {Field: "undoSupported"}, id},
		{{Field: "movementDate", Desc: true}, {Field: "requestStatus"}, id},
	} {
		name := odata.FormatOrderBy(order)
		for _, base := range []store.RequestQuery{inspectorQuery, keeper1Query, tracing(farmA)} {
			all := requests(t, s, base) // in id order
			want := slices.Clone(all)
			slices.SortStableFunc(want, compareBy(order))
			q := base
			q.Order = order
			wantIDs(t, name+": one page", ids(requests(t, s, q)), ids(want))
			var walked []store.Request
			fields := make([]string, len(order))
			for i, o := range order {
				fields[i] = o.Field
			}
			q.Limit = 3
			for range len(all) + 1 {
				page := requests(t, s, q)
				walked = append(walked, page...)
				if len(page) < q.Limit {
					break
				}
				q.After = page[len(page)-1].Values(fields)
			}
			wantIDs(t, name+": paged by 3", ids(walked), ids(want))
			q.After, q.Offset, q.Limit = nil, 4, 2
			wantIDs(t, name+": offset 4, limit 2", ids(requests(t, s, q)), ids(want[4:6]))
		}
	}
}

// testRequestCount: CountRequests counts what Requests lists, for every
// kind of caller and filter.
func testRequestCount(t *testing.T, s store.Store) {
	addRequests(t, s, orderRequests()...)
	addRequests(t, s, transfer("keeper2", market), transfer("other"), transfer("other", farmB))
	for _, filter := range []odata.Expr{
		nil,
		cmpf("isFullUndone", odata.Eq, true),
		cmpf("content/trackingId", odata.Ne, "t07"),
		cmpf("holding", odata.Eq, farmB.String()),
		cmpf("userName", odata.Eq, "nobody"),
	} {
		for _, q := range []store.RequestQuery{inspectorQuery, keeper1Query, keeper2Query, strangerQuery, tracing(farmA)} {
			q = filtered(q, filter)
			n, err := s.CountRequests(ctx(t), q)
			must(t, "CountRequests", err)
			if want := len(requests(t, s, q)); n != int64(want) {
				t.Errorf("CountRequests(%+v) = %d, want %d", q, n, want)
			}
		}
	}
}

// testLiveRecordFilter: $filter on the members of the live record.
func testLiveRecordFilter(t *testing.T, s store.Store) {
	rs := orderRequests()
	got := addRequests(t, s, rs...)
	for _, tt := range []struct {
		name   string
		filter odata.Expr
		want   func(store.Request) bool
	}{
		{"isFullUndone eq true", cmpf("isFullUndone", odata.Eq, true), func(r store.Request) bool { return r.IsFullUndone }},
		{"isFullUndone ne true", cmpf("isFullUndone", odata.Ne, true), func(r store.Request) bool { return !r.IsFullUndone }},
		{"undoSupported eq false", cmpf("undoSupported", odata.Eq, false), func(store.Request) bool { return true }},
		{"isContentPurged eq false", cmpf("isContentPurged", odata.Eq, false), func(store.Request) bool { return true }},
		{"isContentPurged eq true", cmpf("isContentPurged", odata.Eq, true), func(store.Request) bool { return false }},
		// Instants compare as shown, to the whole second (base has a fraction).
		{"updatedDate ge", cmpf("updatedDate", odata.Ge, shown(base.Add(2*time.Hour))),
			func(r store.Request) bool { return !shown(r.UpdatedDate).Before(shown(base.Add(2 * time.Hour))) }},
		{"content/trackingId eq", cmpf("content/trackingId", odata.Eq, "t07"), func(r store.Request) bool { return r.TrackingID == "t07" }},
		{"trackingId eq null", cmpf("trackingId", odata.Eq, odata.Null{}), func(r store.Request) bool { return r.TrackingID == "" }},
		{"trackingId ne null", cmpf("trackingId", odata.Ne, odata.Null{}), func(r store.Request) bool { return r.TrackingID != "" }},
		{"not species eq null", &odata.Not{Expr: cmpf("species", odata.Eq, odata.Null{})}, func(r store.Request) bool { return r.Species != 0 }},
		{"requestDate eq null", cmpf("requestDate", odata.Eq, odata.Null{}), func(store.Request) bool { return false }},
		{"isContentPurged ne null", cmpf("isContentPurged", odata.Ne, odata.Null{}), func(store.Request) bool { return true }},
		{"content/species eq", cmpf("content/species", odata.Eq, "Goats"), func(r store.Request) bool { return r.Species == livestock.SpeciesGoats }},
	} {
		var want []int64
		for i, r := range rs {
			if tt.want(r) {
				want = append(want, got[i])
			}
		}
		q := inspectorQuery
		q.Filter = tt.filter
		wantIDs(t, tt.name, ids(requests(t, s, q)), want)
	}
}
