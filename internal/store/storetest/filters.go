package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// Short forms for building $filter trees.
func cmpf(field string, op odata.Op, v any) odata.Expr {
	return &odata.Comparison{Field: field, Op: op, Value: v}
}
func not(e odata.Expr) odata.Expr    { return &odata.Not{Expr: e} }
func and(l, r odata.Expr) odata.Expr { return &odata.And{Left: l, Right: r} }
func or(l, r odata.Expr) odata.Expr  { return &odata.Or{Left: l, Right: r} }
func call(fn, field, v string) odata.Expr {
	return &odata.Call{Func: fn, Field: field, Value: v}
}

// at parses an instant of a $filter.
func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// filterRequests are the requests of testRequestFilter. The request date
// of the i-th is base plus i hours.
func filterRequests() []store.Request {
	r := func(user string, species livestock.Species, status store.RequestStatus, movement time.Time, tracking string) store.Request {
		q := transfer(user)
		q.Species, q.Status, q.MovementDate, q.TrackingID = species, status, movement, tracking
		return q
	}
	rs := []store.Request{
		r("keeper1", livestock.SpeciesSheep, store.StatusPending, ymd(2026, 11, 1), "T-0"),
		r("keeper1", livestock.SpeciesGoats, store.StatusSuccess, ymd(2026, 11, 30), ""),
		r("keeper2", livestock.SpeciesSheep, store.StatusFailed, ymd(2026, 10, 31), "T-2"),
		r("keeper2", livestock.SpeciesDeer, store.StatusSuccess, ymd(2026, 12, 1), "O'Brien"),
		r("keeper1", 0, store.StatusPending, time.Time{}, ""),
	}
	for i := range rs {
		rs[i].RequestDate = base.Add(time.Duration(i) * time.Hour)
	}
	return rs
}

func testRequestFilter(t *testing.T, s store.Store) {
	got := addRequests(t, s, filterRequests()...)
	other := transfer("keeper1")
	other.Type, other.Species = store.RequestReview, livestock.SpeciesSheep
	addRequests(t, s, other)                                                               // never listed with the transfers
	hour := func(i int) time.Time { return shown(base.Add(time.Duration(i) * time.Hour)) } // as a client was shown it
	nov1, nov30 := at("2026-11-01T00:00:00Z"), at("2026-11-30T23:59:59Z")
	for _, tt := range []struct {
		name   string
		filter odata.Expr
		want   []int
	}{
		{"none", nil, []int{0, 1, 2, 3, 4}},
		{"species eq", cmpf("species", odata.Eq, "Sheep"), []int{0, 2}},
		{"species ne", cmpf("species", odata.Ne, "Sheep"), []int{1, 3, 4}},
		{"species gt", cmpf("species", odata.Gt, "Goats"), []int{0, 2}},
		// Request 4 has no species (shown as null): an order comparison
		// never includes it, and ne counts it as different.
		{"species lt", cmpf("species", odata.Lt, "Goats"), []int{3}},
		{"species eq '' is not the null species", cmpf("species", odata.Eq, ""), nil},
		{"species ne '' counts none as different", cmpf("species", odata.Ne, ""), []int{0, 1, 2, 3, 4}},
		{"status eq", cmpf("requestStatus", odata.Eq, "Success"), []int{1, 3}},
		{"userName eq", cmpf("userName", odata.Eq, "keeper2"), []int{2, 3}},
		{"trackingId eq", cmpf("trackingId", odata.Eq, "T-0"), []int{0}},
		{"trackingId ne counts none as different", cmpf("trackingId", odata.Ne, "T-0"), []int{1, 2, 3, 4}},
		{"not trackingId eq is ne", not(cmpf("trackingId", odata.Eq, "T-0")), []int{1, 2, 3, 4}},
		{"trackingId gt skips none", cmpf("trackingId", odata.Gt, "T-0"), []int{2}},
		{"trackingId le skips none", cmpf("trackingId", odata.Le, "T-0"), []int{0, 3}},
		{"quote in a value", cmpf("trackingId", odata.Eq, "O'Brien"), []int{3}},
		{"movementDate in November", and(cmpf("movementDate", odata.Ge, nov1), cmpf("movementDate", odata.Le, nov30)), []int{0, 1}},
		{"movementDate gt", cmpf("movementDate", odata.Gt, nov1), []int{1, 3}},
		{"movementDate lt", cmpf("movementDate", odata.Lt, nov1), []int{2}},
		{"movementDate le", cmpf("movementDate", odata.Le, nov1), []int{0, 2}},
		{"movementDate eq", cmpf("movementDate", odata.Eq, at("2026-11-30T00:00:00Z")), []int{1}},
		{"movementDate ne counts none as different", cmpf("movementDate", odata.Ne, at("2026-11-30T00:00:00Z")), []int{0, 2, 3, 4}},
		{"not movementDate gt", not(cmpf("movementDate", odata.Gt, nov1)), []int{0, 2, 4}},
		{"requestDate eq", cmpf("requestDate", odata.Eq, hour(1)), []int{1}},
		{"requestDate ge", cmpf("requestDate", odata.Ge, hour(1)), []int{1, 2, 3, 4}},
		{"requestDate lt", cmpf("requestDate", odata.Lt, hour(1)), []int{0}},
		{"requestDate gt in another zone", cmpf("requestDate", odata.Gt, hour(3).In(time.FixedZone("X", 5*3600))), []int{4}},
		// A stored request date keeps its fraction (base has one), but
		// compares as it is shown, to the whole second.
		{"requestDate le its shown value", cmpf("requestDate", odata.Le, hour(1)), []int{0, 1}},
		{"requestDate gt its shown value", cmpf("requestDate", odata.Gt, hour(1)), []int{2, 3, 4}},
		{"requestDate ne its shown value", cmpf("requestDate", odata.Ne, hour(1)), []int{0, 2, 3, 4}},
		{"requestDate eq a fraction no value shows", cmpf("requestDate", odata.Eq, stored(base.Add(time.Hour))), nil},
		{"requestDate ge a fraction: from the next second", cmpf("requestDate", odata.Ge, hour(1).Add(time.Millisecond)), []int{2, 3, 4}},
		{"requestDate le a fraction: to its second", cmpf("requestDate", odata.Le, hour(1).Add(time.Millisecond)), []int{0, 1}},
		{"requestId eq", cmpf("requestId", odata.Eq, got[2]), []int{2}},
		{"requestId gt", cmpf("requestId", odata.Gt, got[2]), []int{3, 4}},
		{"requestId le", cmpf("requestId", odata.Le, got[1]), []int{0, 1}},
		{"requestId ne", cmpf("requestId", odata.Ne, got[1]), []int{0, 2, 3, 4}},
		{"or", or(cmpf("species", odata.Eq, "Deer"), cmpf("userName", odata.Eq, "keeper1")), []int{0, 1, 3, 4}},
		{"and of or", and(or(cmpf("species", odata.Eq, "Sheep"), cmpf("species", odata.Eq, "Goats")),
			cmpf("requestStatus", odata.Ne, "Pending")), []int{1, 2}},
		{"or of and", or(and(cmpf("species", odata.Eq, "Sheep"), cmpf("userName", odata.Eq, "keeper2")),
			cmpf("requestId", odata.Eq, got[4])), []int{2, 4}},
		{"not not", not(not(cmpf("species", odata.Eq, "Sheep"))), []int{0, 2}},
		{"not and", not(and(cmpf("species", odata.Eq, "Sheep"), cmpf("userName", odata.Eq, "keeper1"))), []int{1, 2, 3, 4}},
		// The string functions match letter case exactly (SQLite's LIKE
		// would not) and take % and _ as themselves; none has nothing in it.
		{"contains", call("contains", "trackingId", "-"), []int{0, 2}},
		{"contains, letter case", call("contains", "trackingId", "t-"), nil},
		{"contains a quote", call("contains", "trackingId", "'B"), []int{3}},
		{"contains % and _", or(call("contains", "trackingId", "%"), call("contains", "trackingId", "_")), nil},
		{"startswith", call("startswith", "trackingId", "T-"), []int{0, 2}},
		{"startswith the whole", call("startswith", "trackingId", "O'Brien"), []int{3}},
		{"startswith longer than the value", call("startswith", "trackingId", "O'Briens"), nil},
		{"endswith", call("endswith", "userName", "2"), []int{2, 3}},
		{"endswith longer than the value", call("endswith", "trackingId", "xT-0"), nil},
		{"endswith the whole", call("endswith", "userName", "keeper1"), []int{0, 1, 4}},
		{"the empty string: every value, not none", call("contains", "trackingId", ""), []int{0, 2, 3}},
		{"not contains counts none", not(call("contains", "trackingId", "T")), []int{1, 3, 4}},
		{"a function and a comparison", and(call("startswith", "userName", "keeper"), cmpf("species", odata.Eq, "Sheep")), []int{0, 2}},
		{"injection in species", cmpf("species", odata.Eq, "' OR 1=1 --"), nil},
		{"injection in userName", cmpf("userName", odata.Eq, "keeper1' --"), nil},
		{"injection in trackingId", cmpf("trackingId", odata.Ne, "x'); DROP TABLE requests; --"), []int{0, 1, 2, 3, 4}},
	} {
		q := inspectorQuery
		q.Filter = tt.filter
		wantIDs(t, tt.name, ids(requests(t, s, q)), pick(got, tt.want...))
	}
}

// testHoldingFilter: `holding eq` keeps the requests that concern a
// holding, as an inspector tracing it asks; `ne` and `not` keep the rest.
// A keeper filtering on a holding sees no more than without the filter.
func testHoldingFilter(t *testing.T, s store.Store) {
	r := func(user string, movement time.Time, holdings ...string) store.Request {
		var hs []livestock.CPH
		for _, h := range holdings {
			hs = append(hs, livestock.MustCPH(h))
		}
		q := transfer(user, hs...)
		q.Species, q.MovementDate = livestock.SpeciesSheep, movement
		return q
	}
	a, b, m, ab := farmA.String(), farmB.String(), market.String(), abattoir.String()
	got := addRequests(t, s,
		r("keeper1", ymd(2026, 11, 2), a, b),
		r("keeper2", ymd(2026, 11, 3), b, m),
		r("keeper2", ymd(2026, 12, 4), m, ab),
		r("keeper1", ymd(2026, 11, 5)),
		r("keeper2", ymd(2026, 10, 6), b, ab),
	)
	other := transfer("keeper1", farmB)
	other.Type = store.RequestReview
	addRequests(t, s, other) // never listed with the transfers
	holding := func(op odata.Op, cph string) odata.Expr { return cmpf("holding", op, cph) }
	november := and(cmpf("movementDate", odata.Ge, at("2026-11-01T00:00:00Z")), cmpf("movementDate", odata.Le, at("2026-11-30T23:59:59Z")))
	for _, tt := range []struct {
		name   string
		q      store.RequestQuery
		filter odata.Expr
		want   []int
	}{
		{"inspector, eq", inspectorQuery, holding(odata.Eq, b), []int{0, 1, 4}},
		{"inspector, eq and a user", inspectorQuery, and(cmpf("userName", odata.Eq, "keeper2"), holding(odata.Eq, m)), []int{1, 2}},
		{"inspector, eq in a month", inspectorQuery, and(november, holding(odata.Eq, b)), []int{0, 1}},
		{"inspector, ne", inspectorQuery, holding(odata.Ne, b), []int{2, 3}},
		{"inspector, not eq", inspectorQuery, not(holding(odata.Eq, b)), []int{2, 3}},
		{"inspector, eq or eq", inspectorQuery, or(holding(odata.Eq, a), holding(odata.Eq, ab)), []int{0, 2, 4}},
		{"inspector, eq and eq", inspectorQuery, and(holding(odata.Eq, b), holding(odata.Eq, ab)), []int{4}},
		{"inspector, a holding nothing concerns", inspectorQuery, holding(odata.Eq, "99/999/9999"), nil},
		{"keeper2, a holding not theirs", keeper2Query, holding(odata.Eq, b), []int{1, 4}},
		{"keeper2, one of theirs", keeper2Query, holding(odata.Eq, m), []int{1, 2}},
		{"keeper1, a market only keeper2's requests concern", keeper1Query, holding(odata.Eq, m), nil},
		{"keeper1, their farm", keeper1Query, holding(odata.Eq, b), []int{0}},
		{"keeper2, a farm only keeper1's requests concern", keeper2Query, holding(odata.Eq, a), nil},
		{"stranger", strangerQuery, holding(odata.Eq, b), nil},
	} {
		q := tt.q
		q.Filter = tt.filter
		wantIDs(t, tt.name, ids(requests(t, s, q)), pick(got, tt.want...))
	}
	// Paged, the inspector's trace keeps its order and its end.
	q := inspectorQuery
	q.Filter, q.Limit = holding(odata.Eq, b), 2
	wantIDs(t, "inspector, first page", ids(requests(t, s, q)), pick(got, 0, 1))
	q.AfterID = got[1]
	wantIDs(t, "inspector, after the first page", ids(requests(t, s, q)), pick(got, 4))
	q.Filter = cmpf("holding", odata.Gt, b)
	_, err := s.Requests(ctx(t), q)
	wantCode(t, "holding gt", err, livestock.CodeFilterSyntax)
}

// testFilterErrors checks that a field outside the allow-list, or a value
// of the wrong type, is the caller's mistake.
func testFilterErrors(t *testing.T, s store.Store) {
	c := ctx(t)
	for _, tt := range []struct {
		name   string
		filter odata.Expr
		code   livestock.Code
	}{
		{"unknown field", cmpf("animalCount", odata.Eq, int64(1)), livestock.CodeFilterField},
		{"column name", cmpf("user_name", odata.Eq, "keeper1"), livestock.CodeFilterField},
		{"deep unknown field", or(cmpf("species", odata.Eq, "Sheep"), not(cmpf("content", odata.Eq, "x"))), livestock.CodeFilterField},
		{"wrong type", cmpf("species", odata.Eq, int64(3)), livestock.CodeFilterSyntax},
		{"wrong operator", cmpf("species", odata.Op("like"), "S%"), livestock.CodeFilterSyntax},
	} {
		q := keeper1Query
		q.Filter = tt.filter
		_, err := s.Requests(c, q)
		wantCode(t, tt.name, err, tt.code)
	}
	_, err := s.PendingReviews(c, store.ReviewQuery{Holding: farmB, Species: livestock.SpeciesSheep,
		Filter: cmpf("species", odata.Eq, "Sheep")})
	wantCode(t, "PendingReviews on species", err, livestock.CodeFilterField)
}

// wantCode fails the test unless err is KindInvalid naming code.
func wantCode(t *testing.T, what string, err error, code livestock.Code) {
	t.Helper()
	wantKind(t, what, err, livestock.KindInvalid)
	var le *livestock.Error
	if errors.As(err, &le) && (len(le.Fields) != 1 || le.Fields[0].Code != code) {
		t.Errorf("%s: fields %+v, want one of code %s", what, le.Fields, code)
	}
}

// testMovementDateAsShown: a movement date sent with a fraction of a
// second is stored with it but compares as shown, to the whole second:
// the last half-second of a month is in a listing of that month by
// `le …T23:59:59Z`, whether the store reads it by month or in id order,
// and `eq` its shown value finds it.
func testMovementDateAsShown(t *testing.T, s store.Store) {
	late, next := transfer("keeper1", farmA), transfer("keeper1", farmA)
	late.MovementDate = time.Date(2026, 11, 30, 23, 59, 59, 500_000_000, time.UTC)
	next.MovementDate = ymd(2026, 12, 1)
	got := addRequests(t, s, late, next)
	november := and(cmpf("movementDate", odata.Ge, at("2026-11-01T00:00:00Z")), cmpf("movementDate", odata.Le, at("2026-11-30T23:59:59Z")))
	for _, tt := range []struct {
		name string
		q    store.RequestQuery
		want []int
	}{
		{"the keeper's November", filtered(keeper1Query, november), []int{0}},
		{"the inspector's November", filtered(inspectorQuery, november), []int{0}},
		{"the holding's November", filtered(keeper1Query, and(cmpf("holding", odata.Eq, farmA.String()), november)), []int{0}},
		{"eq the shown value", filtered(inspectorQuery, cmpf("movementDate", odata.Eq, at("2026-11-30T23:59:59Z"))), []int{0}},
		{"lt the next day", filtered(inspectorQuery, cmpf("movementDate", odata.Lt, at("2026-12-01T00:00:00Z"))), []int{0}},
		{"gt the shown value", filtered(inspectorQuery, cmpf("movementDate", odata.Gt, at("2026-11-30T23:59:59Z"))), []int{1}},
		// The last second there is: its end is not bound as year 10000.
		{"le the last second", filtered(inspectorQuery, cmpf("movementDate", odata.Le, at("9999-12-31T23:59:59Z"))), []int{0, 1}},
		{"gt the last second", filtered(inspectorQuery, cmpf("movementDate", odata.Gt, at("9999-12-31T23:59:59Z"))), nil},
		{"ge a fraction of the last second", filtered(inspectorQuery,
			cmpf("movementDate", odata.Ge, time.Date(9999, 12, 31, 23, 59, 59, 500_000_000, time.UTC))), nil},
	} {
		wantIDs(t, tt.name, ids(requests(t, s, tt.q)), pick(got, tt.want...))
	}
}
