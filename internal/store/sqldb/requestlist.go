package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/store"
)

// The listing queries take $1 the type, $2 the id to start after, $3 the
// limit and $4 the offset; listVisibleSQL takes $5 offset+limit. The
// filter's parameters come next, then those of the branches.
const (
	// listAllSQL pages through every request of a type, on requests_type.
	listAllSQL = `SELECT ` + requestColumns + ` FROM requests r
		WHERE r.type = $1 AND r.id > $2 AND %s ORDER BY %s LIMIT $3 OFFSET $4`
	// listVisibleSQL is the union of the branches of what a user may see,
	// each cut to its first offset+limit ids: the page is among those.
	// Every branch reads one index in id order and stops at its limit, so
	// a page costs about its size, whatever the size of the table.
	listVisibleSQL = `SELECT ` + requestColumns + ` FROM requests WHERE id IN (
		SELECT id FROM (%s) v ORDER BY id LIMIT $3 OFFSET $4) ORDER BY id`
	// listMineSQL: the user's own, on requests_user (user_name, type, id).
	listMineSQL = `SELECT id FROM (SELECT r.id FROM requests r
		WHERE r.user_name = $%d AND r.type = $1 AND r.id > $2 AND %s ORDER BY %s LIMIT $5) mine`
	// listHoldingSQL: those concerning one holding, on the primary key
	// (cph, request_id) of request_holdings. One branch per holding, rather
	// than cph IN (…), keeps each in id order: with IN, PostgreSQL walks
	// the primary key of requests instead, through every id up to the
	// page, when the holdings' requests are recent.
	listHoldingSQL = `SELECT id FROM (SELECT r.id FROM request_holdings h JOIN requests r ON r.id = h.request_id
		WHERE h.cph = $%d AND h.request_id > $2 AND r.type = $1 AND %s AND %s ORDER BY %s LIMIT $5) h%d`
	// listHoldingDatesSQL: those of one holding in a range of dates, when
	// the filter says nothing else: on request_holdings_date (cph, type,
	// movement_date, request_id) alone, with no request read.
	listHoldingDatesSQL = `SELECT id FROM (SELECT h.request_id AS id FROM request_holdings h
		WHERE h.cph = $%d AND h.type = $1 AND h.request_id > $2 AND %s ORDER BY h.request_id + 0 LIMIT $5) h%d`
	// listHoldingsSQL serves a user of more holdings than maxBranches.
	listHoldingsSQL = `SELECT id FROM (SELECT r.id FROM requests r
		WHERE r.id IN (SELECT request_id FROM request_holdings WHERE cph IN (%s) AND request_id > $2)
		AND r.type = $1 AND r.id > $2 AND %s ORDER BY r.id LIMIT $5) theirs`
	holdingsOfSQL = `SELECT request_id, cph FROM request_holdings WHERE request_id IN (%s) ORDER BY request_id, cph`
)

// A branch walks its index in id order (idOrder), unless the filter bounds
// the movement date (see dateBounds): then it reads the range on the
// branch's date index and sorts it. "+ 0" keeps the order but hides the id
// from both planners, which would otherwise walk the id index to save the
// sort, through every request before the range.
const (
	idOrder   = "%sid"
	dateOrder = "%sid + 0"
)

// maxBranches bounds the holdings given a branch each (SQLite allows 500
// terms in a compound SELECT).
const maxBranches = 100

// Requests lists the requests q selects, with their holdings, in id order.
// A Limit of zero or less means no limit.
func (s *Store) Requests(ctx context.Context, q store.RequestQuery) (list []store.Request, err error) {
	defer s.wrap(&err, "Requests")
	query, args, err := s.requestsQuery(q)
	if err != nil || query == "" {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return list, s.fillHoldings(ctx, s.r, list)
}

// requestsQuery compiles q: the query and its parameters, or "" when q
// can see nothing.
func (s *Store) requestsQuery(q store.RequestQuery) (string, []any, error) {
	limit, offset, end := window(q.Limit, q.Offset)
	f := filter{s: s, cols: requestFields, prefix: "r.", args: []any{string(q.Type), q.AfterID, limit, offset}}
	if !q.All {
		f.args = append(f.args, end)
	}
	// The filter is compiled even when nothing is visible, so that a bad
	// one is reported to every caller alike.
	cond, err := f.compile(q.Filter)
	if err != nil {
		return "", nil, err
	}
	order := idOrder
	bounds, onlyDates := dateBounds(q.Filter)
	if bounds != nil {
		order = dateOrder
	}
	args := f.args
	if q.All {
		return fmt.Sprintf(listAllSQL, cond, fmt.Sprintf(order, "r.")), args, nil
	}
	var branches []string
	if q.UserName != "" {
		args = append(args, q.UserName)
		branches = append(branches, fmt.Sprintf(listMineSQL, len(args), cond, fmt.Sprintf(order, "r.")))
	}
	hs := slices.Compact(slices.Sorted(slices.Values(q.Holdings)))
	if len(hs) > maxBranches {
		branches = append(branches, fmt.Sprintf(listHoldingsSQL, marks(len(args)+1, len(hs)), cond))
		for _, h := range hs {
			args = append(args, h)
		}
		hs = nil
	}
	holdingDates := sqlTrue
	if bounds != nil && len(hs) > 0 {
		hf := filter{s: s, cols: requestFields, prefix: "h.", args: args}
		hf.cols = map[string]column{"movementDate": requestFields["movementDate"]}
		if holdingDates, err = hf.compile(bounds); err != nil {
			return "", nil, err
		}
		args = hf.args
	}
	for i, h := range hs {
		args = append(args, h)
		if onlyDates {
			branches = append(branches, fmt.Sprintf(listHoldingDatesSQL, len(args), holdingDates, i))
			continue
		}
		branches = append(branches, fmt.Sprintf(listHoldingSQL, len(args), cond, holdingDates,
			fmt.Sprintf(order, "h.request_"), i))
	}
	if len(branches) == 0 {
		return "", nil, nil
	}
	return fmt.Sprintf(listVisibleSQL, strings.Join(branches, " UNION ")), args, nil
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

// fillHoldings sets the Holdings of each request of list, in CPH order,
// with one query for every MaxParams requests.
func (s *Store) fillHoldings(ctx context.Context, q querier, list []store.Request) error {
	at := make(map[int64]*store.Request, len(list))
	ids := make([]any, len(list))
	for i := range list {
		at[list[i].ID], ids[i] = &list[i], list[i].ID
	}
	return s.eachOf(ctx, q, holdingsOfSQL, ids, func(rows *sql.Rows) error {
		var id int64
		var cph string
		err := rows.Scan(&id, &cph)
		if err == nil {
			at[id].Holdings = append(at[id].Holdings, cph)
		}
		return err
	})
}
