package sqldb

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// The listing queries take $1 the type and $2 the id to start after; the
// filter's parameters come next, then those of the branches. The page's
// window is written in ({limit}, {offset}, {end}: see paging), and their
// columns ({columns}: see listed).
const (
	// listOneSQL is the page of a listing of one branch on requests, read
	// straight from its index in id order: every request of a type (on
	// requests_type), or the user's own (requests_user), or either in one
	// month (requests_month, requests_user_month).
	listOneSQL = `SELECT {columns} FROM requests r
		WHERE r.type = $1 AND r.id > $2 AND %s ORDER BY r.id LIMIT {limit} OFFSET {offset}`
	// listVisibleSQL is the page among the ids of the branches of what a
	// user may see, merged in id order ({ids}: Tuning.ListMerge).
	listVisibleSQL = `SELECT {columns} FROM requests WHERE id IN ({ids}) ORDER BY id`

	// The branches, each a SELECT of the column id in id order by the
	// index named.

	// listTypeSQL: every request of the type, for the inspector's listing
	// bounded by months, on requests_month (type, movement_month, id, …).
	listTypeSQL = `SELECT r.id AS id FROM requests r WHERE r.type = $1 AND r.id > $2 AND %s`
	// listMineSQL: the user's own, on requests_user (user_name, type, id),
	// or requests_user_month when bounded by months.
	listMineSQL = `SELECT r.id AS id FROM requests r WHERE r.user_name = $%d AND r.type = $1 AND r.id > $2 AND %s`
	// listHoldingSQL: those concerning one holding, on the primary key
	// (cph, request_id) of request_holdings, or request_holdings_month.
	listHoldingSQL = `SELECT h.request_id AS id FROM request_holdings h JOIN requests r ON r.id = h.request_id
		WHERE h.cph = $%d AND h.request_id > $2 AND r.type = $1 AND %s AND %s`
	// listHoldingDatesSQL: those of one holding in a month, when the
	// filter says nothing but dates: on request_holdings_month (cph, type,
	// movement_month, request_id, movement_date) alone, with no request
	// read.
	listHoldingDatesSQL = `SELECT h.request_id AS id FROM request_holdings h
		WHERE h.cph = $%d AND h.type = $1 AND h.request_id > $2 AND %s`
	// listHoldingTypeSQL: those of one holding, when there is no filter:
	// on the primary key (cph, request_id) of request_holdings alone, whose
	// rows copy the request's type, with no request read. A deep $skip
	// reads every id it skips on each branch: joined to requests, each was
	// a request read.
	listHoldingTypeSQL = `SELECT h.request_id AS id FROM request_holdings h
		WHERE h.cph = $%d AND h.type = $1 AND h.request_id > $2`
)

const (
	// maxMonthBranches bounds the months a listing reads as a branch
	// each: SQLite allows 500 terms in a compound SELECT. Past it, the
	// listing is read in id order.
	maxMonthBranches = 400
)

// maxPrealloc bounds the room made for a page before its rows are read:
// the rows there are may be far fewer than the page's limit.
const maxPrealloc = 1000

// Requests lists the requests q selects, with their holdings, in id order
// or in q.Order.
// A Limit of zero or less means no limit.
func (s *Store) Requests(ctx context.Context, q store.RequestQuery) (list []store.Request, err error) {
	defer s.wrap(&err, "Requests")
	query, args, err := s.requestsQuery(q)
	if err != nil || query == "" {
		return nil, err
	}
	if q.Limit > 0 { // a page: grown one append at a time it was copied five times
		list = make([]store.Request, 0, min(q.Limit, maxPrealloc))
	}
	var sc requestScanner
	err = s.eachRow(ctx, query, args, func(scan func(dest ...any) error) error {
		r, err := sc.scan(scanFunc(scan))
		list = append(list, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// requestsQuery compiles q: the query and its parameters, or "" when q
// can see nothing.
//
// What q may see is one branch: every request of the type (All), the
// user's own, or, for an inspector whose filter requires one holding, that
// holding's. The branch reads its index in id order and stops at the
// page's end. When the filter bounds the movement date to a few months
// (dateBounds), it is read once per month, on the month indexes, and the
// months are merged in id order.
func (s *Store) requestsQuery(q store.RequestQuery) (string, []any, error) {
	if q.Order != nil {
		return s.orderedQuery(q)
	}
	traced, hasTraced := livestock.CPH{}, false
	if term, ok := tracedHolding(q.Filter); ok && q.All {
		// An inspector tracing a holding: its requests are all the
		// inspector may see that the filter keeps, and its index finds
		// them without reading every request of the type. The branch
		// then says what the term did. The filter's Read normalised the
		// value; one that is no CPH matches nothing, as the term
		// compiled does.
		if c, err := livestock.ParseCPH(term.Value.(string)); err == nil {
			traced, hasTraced = c, true
			q.Filter = without(q.Filter, term)
		}
	}
	bounds, buckets, onlyDates := dateBounds(q.Filter)
	if len(buckets) > maxMonthBranches {
		bounds, buckets, onlyDates = nil, nil, false
	}
	f := filter{s: s, cols: requestFields, prefix: "r.", args: []any{string(q.Type), q.AfterID}}
	page := listed(q)
	// The filter is compiled even when nothing is visible, so that a bad
	// one is reported to every caller alike.
	cond, err := f.compile(q.Filter)
	if err != nil {
		return "", nil, err
	}
	args := f.args
	if !hasTraced && !q.All && q.UserName == "" {
		return "", nil, nil
	}
	// inMonth is the condition on the month bucket of column prefix
	// (r. or h.): nothing, or one of buckets, bound as the next parameter.
	months := []int64{0}
	if bounds != nil {
		months = buckets
	}
	inMonth := func(prefix string, m int64) string {
		if bounds == nil {
			return ""
		}
		args = append(args, m)
		return fmt.Sprintf(" AND %smovement_month = $%d", prefix, len(args))
	}
	if !hasTraced && len(months) == 1 {
		// One branch on requests needs no merge: the page is read from
		// it directly.
		if !q.All {
			args = append(args, q.UserName)
			cond += fmt.Sprintf(" AND r.user_name = $%d", len(args))
		}
		return page.Replace(fmt.Sprintf(listOneSQL, cond+inMonth("r.", months[0]))), args, nil
	}
	var branches []string
	// branch adds a branch in id order by the column order. The page's
	// window is written into the branch's short form once, here, rather
	// than by a Replacer over every branch and then the whole query: a
	// month is a dozen branches, read many times a second.
	branchForm := page.Replace(s.tune.ListBranch)
	branch := func(order, format string, a ...any) {
		b := strings.Replace(branchForm, "{branch}", fmt.Sprintf(format, a...), 1)
		branches = append(branches, strings.Replace(b, "{order}", order, 1))
	}
	switch {
	case hasTraced:
		holdingDates := sqlTrue
		if onlyDates {
			// The holding's index holds the dates: the branch binds none
			// of the filter's own parameters.
			args = args[:2]
		}
		if bounds != nil {
			hf := filter{s: s, cols: map[string]column{"movementDate": requestFields["movementDate"]}, prefix: "h.", args: args}
			if holdingDates, err = hf.compile(bounds); err != nil {
				return "", nil, err
			}
			args = hf.args
		}
		args = append(args, traced.String())
		cph := len(args)
		for _, m := range months {
			switch {
			case onlyDates:
				branch("h.request_id", listHoldingDatesSQL, cph, holdingDates+inMonth("h.", m))
			case q.Filter == nil:
				branch("h.request_id", listHoldingTypeSQL, cph)
			default:
				branch("h.request_id", listHoldingSQL, cph, cond, holdingDates+inMonth("h.", m))
			}
		}
	case q.All:
		for _, m := range months {
			branch("r.id", listTypeSQL, cond+inMonth("r.", m))
		}
	default:
		args = append(args, q.UserName)
		user := len(args)
		for _, m := range months {
			branch("r.id", listMineSQL, user, cond+inMonth("r.", m))
		}
	}
	if len(branches) == 0 {
		return "", nil, nil // an empty range of dates
	}
	ids := strings.Replace(page.Replace(s.tune.ListMerge), "{branches}", strings.Join(branches, s.tune.ListUnion), 1)
	return strings.Replace(page.Replace(listVisibleSQL), "{ids}", ids, 1), args, nil
}

// tracedHolding is a `holding eq` that the whole of filter e requires
// (e itself, or a term of its top-level ands).
func tracedHolding(e odata.Expr) (*odata.Comparison, bool) {
	switch e := e.(type) {
	case *odata.Comparison:
		if _, ok := e.Value.(string); ok && e.Field == "holding" && e.Op == odata.Eq {
			return e, true
		}
	case *odata.And:
		if c, ok := tracedHolding(e.Left); ok {
			return c, true
		}
		return tracedHolding(e.Right)
	}
	return nil, false
}

// without is filter e with its top-level term c taken out (nil: no
// filter left).
func without(e odata.Expr, c *odata.Comparison) odata.Expr {
	if and, ok := e.(*odata.And); ok {
		l, r := without(and.Left, c), without(and.Right, c)
		switch {
		case l == nil:
			return r
		case r == nil:
			return l
		}
		return &odata.And{Left: l, Right: r}
	}
	if e == odata.Expr(c) {
		return nil
	}
	return e
}

// paging writes a page's window into a query: {limit}, {offset} and {end}
// (their sum). They are written, not bound: SQLite plans a LIMIT by its
// value, so a bound one made it prepare the statement again at every
// execution (a tenth of a month's listing); and they are the server's own
// numbers, never the caller's text.
func paging(limit, offset int) *strings.Replacer {
	lim, off, end := window(limit, offset)
	return strings.NewReplacer("{limit}", strconv.FormatInt(lim, 10), "{offset}", strconv.FormatInt(off, 10),
		"{end}", strconv.FormatInt(end, 10))
}

// listed is paging for a listing of requests, which also writes
// {columns}: every column, or all but the content unless q.Content.
func listed(q store.RequestQuery) *strings.Replacer {
	lim, off, end := window(q.Limit, q.Offset)
	cols := listColumns
	if q.Content {
		cols = requestColumns
	}
	return strings.NewReplacer("{limit}", strconv.FormatInt(lim, 10), "{offset}", strconv.FormatInt(off, 10),
		"{end}", strconv.FormatInt(end, 10), "{columns}", cols)
}

// window returns the LIMIT and OFFSET of a page and their sum. A limit of
// zero or less means every row: the largest bigint, which both databases
// take.
func window(limit, offset int) (lim, off, end int64) {
	lim, off = int64(limit), max(int64(offset), 0)
	if lim <= 0 || lim > math.MaxInt64-off {
		lim = math.MaxInt64 - off
	}
	return lim, off, lim + off
}
