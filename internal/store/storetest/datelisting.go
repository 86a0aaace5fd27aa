package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// testDateListing lists a month (and other date ranges) of requests dated
// over a year, for each kind of caller, a page at a time: the store may
// read a closed range by date rather than in id order, and must give the
// same requests, in id order, with nothing repeated or skipped between
// pages. It also checks that a request's holdings keep its date after the
// request is updated.
func testDateListing(t *testing.T, s store.Store) {
	var all []store.Request
	for i := range 60 {
		holdings := [][]livestock.CPH{{farmA}, {market, farmB}, {abattoir}, nil}[i%4]
		r := transfer([]string{"keeper1", "keeper2", "other"}[i%3], holdings...)
		r.Species = []livestock.Species{livestock.SpeciesSheep, livestock.SpeciesGoats}[i%2]
		r.MovementDate = ymd(2026, time.Month(1+i*7%12), 1+i%28)
		all = append(all, r)
	}
	// A review in March on keeper1's farm: never listed with the transfers.
	review := transfer("keeper1", farmA, market)
	review.Type, review.MovementDate = store.RequestReview, ymd(2026, 3, 5)
	addRequests(t, s, review)
	added := addRequests(t, s, all...)
	for i := range all {
		all[i].ID = added[i]
	}
	// Updating a request rewrites its holdings: they must keep its date.
	updated := requests(t, s, store.RequestQuery{Type: store.RequestTransfer, All: true, Filter: cmpf("requestId", odata.Eq, added[1])})
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		u := updated[0]
		u.MovementDate, u.Status = time.Time{}, store.StatusSuccess
		return tx.UpdateRequest(c, u)
	})
	ge := func(d string) odata.Expr { return cmpf("movementDate", odata.Ge, at(d)) }
	le := func(d string) odata.Expr { return cmpf("movementDate", odata.Le, at(d)) }
	lt := func(d string) odata.Expr { return cmpf("movementDate", odata.Lt, at(d)) }
	march := and(ge("2026-03-01T00:00:00Z"), le("2026-03-31T23:59:59Z"))
	for _, tt := range []struct {
		name   string
		filter odata.Expr
		in     func(r store.Request) bool
	}{
		{"a month", march, inRange("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")},
		{"a month, then species", and(march, cmpf("species", odata.Eq, "Sheep")), func(r store.Request) bool {
			return r.Species == livestock.SpeciesSheep && inRange("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")(r)
		}},
		{"a quarter, bounds apart", and(ge("2026-04-01T00:00:00Z"), and(cmpf("requestStatus", odata.Ne, "Fail"), lt("2026-07-01T00:00:00Z"))),
			inRange("2026-04-01T00:00:00Z", "2026-07-01T00:00:00Z")},
		{"a year", and(ge("2026-01-01T00:00:00Z"), lt("2027-01-01T00:00:00Z")), inRange("2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z")},
		{"a month or another", or(march, and(ge("2026-08-01T00:00:00Z"), lt("2026-09-01T00:00:00Z"))), func(r store.Request) bool {
			return inRange("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")(r) || inRange("2026-08-01T00:00:00Z", "2026-09-01T00:00:00Z")(r)
		}},
		{"across months, in other offsets", and(ge("2026-03-01T01:00:00+02:00"), lt("2026-05-15T00:00:00-01:00")),
			inRange("2026-03-01T01:00:00+02:00", "2026-05-15T00:00:00-01:00")},
		{"up to the first of a month", and(ge("2026-06-10T00:00:00Z"), le("2026-07-01T00:00:00Z")),
			func(r store.Request) bool {
				return inRange("2026-06-10T00:00:00Z", "2026-07-01T00:00:00Z")(r) || r.MovementDate.Equal(at("2026-07-01T00:00:00Z"))
			}},
		{"an empty range", and(ge("2026-05-01T00:00:00Z"), lt("2026-04-01T00:00:00Z")), func(store.Request) bool { return false }},
	} {
		for _, c := range []struct {
			q    store.RequestQuery
			sees func(store.Request) bool
		}{
			{keeper1Query, func(r store.Request) bool { return r.UserName == "keeper1" }},
			{keeper2Query, func(r store.Request) bool { return r.UserName == "keeper2" }},
			{inspectorQuery, func(store.Request) bool { return true }},
			{tracing(farmB), func(r store.Request) bool { return slices.Contains(r.Holdings, farmB) }},
		} {
			var want []int64
			for _, r := range all {
				if tt.in(r) && c.sees(r) {
					want = append(want, r.ID)
				}
			}
			q := filtered(c.q, tt.filter)
			q.Limit = 2
			var seen []int64
			for {
				list := requests(t, s, q)
				if len(list) == 0 {
					break
				}
				seen = append(seen, ids(list)...)
				q.AfterID = list[len(list)-1].ID
			}
			wantIDs(t, fmt.Sprintf("%s for %+v", tt.name, c.q), seen, want)
		}
	}
}

func inRange(from, to string) func(r store.Request) bool {
	return func(r store.Request) bool {
		return !r.MovementDate.IsZero() && !r.MovementDate.Before(at(from)) && r.MovementDate.Before(at(to))
	}
}
