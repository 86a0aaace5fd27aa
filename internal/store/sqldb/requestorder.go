package sqldb

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// A listing in an order of the caller's ($orderby) cannot read the id
// indexes branch by branch as requestsQuery does: it is one query over the
// requests of the type that the user may see, sorted, and started after
// the last item of the page before by comparing every field of the order
// (keyset paging), so that the next page never repeats or skips an item.
const (
	orderedSQL = `SELECT {columns} FROM requests r
		WHERE r.type = $1 AND %s AND %s AND %s ORDER BY %s LIMIT {limit} OFFSET {offset}`
	countSQL = `SELECT count(*) FROM requests r WHERE r.type = $1 AND %s AND %s`
)

// CountRequests is how many requests q selects, paging aside.
func (s *Store) CountRequests(ctx context.Context, q store.RequestQuery) (n int64, err error) {
	defer s.wrap(&err, "CountRequests")
	f := filter{s: s, cols: requestFields, prefix: "r.", args: []any{string(q.Type)}}
	cond, err := f.compile(q.Filter)
	if err != nil {
		return 0, err
	}
	visible, ok := f.visible(q)
	if !ok {
		return 0, nil
	}
	err = s.r.QueryRowContext(ctx, fmt.Sprintf(countSQL, visible, cond), f.args...).Scan(&n)
	return n, err
}

// orderedQuery compiles q, whose Order is set: the query and its
// parameters, or "" when q can see nothing.
func (s *Store) orderedQuery(q store.RequestQuery) (string, []any, error) {
	f := filter{s: s, cols: requestFields, prefix: "r.", args: []any{string(q.Type)}}
	cond, err := f.compile(q.Filter)
	if err != nil {
		return "", nil, err
	}
	visible, ok := f.visible(q)
	if !ok {
		return "", nil, nil
	}
	after, order, err := f.order(q.Order, q.After)
	if err != nil {
		return "", nil, err
	}
	return listed(q).Replace(fmt.Sprintf(orderedSQL, visible, cond, after, order)), f.args, nil
}

// visible is the condition that a request is one q may see, or false when
// it may see none.
func (f *filter) visible(q store.RequestQuery) (string, bool) {
	switch {
	case q.All:
		return sqlTrue, true
	case q.UserName == "":
		return "", false
	}
	f.args = append(f.args, q.UserName)
	return fmt.Sprintf("r.user_name = $%d", len(f.args)), true
}

// order is the condition that a request comes after the values after in
// order (sqlTrue when after is nil), and the ORDER BY that sorts by it. A
// member that has none (NULL) sorts first ascending and last descending,
// as OData orders null, on both databases.
func (f *filter) order(order []odata.OrderItem, after []any) (cond, by string, err error) {
	cols := make([]column, len(order))
	keys := make([]string, len(order))
	for i, o := range order {
		col, ok := f.cols[o.Field]
		if !ok || col.kind == colHolding {
			return "", "", badFilter(fmt.Sprintf("$orderby cannot sort by %q", o.Field))
		}
		cols[i] = col
		keys[i] = col.ref(f.prefix) + " ASC NULLS FIRST"
		if o.Desc {
			keys[i] = col.ref(f.prefix) + " DESC NULLS LAST"
		}
	}
	by = strings.Join(keys, ", ")
	if after == nil {
		return sqlTrue, by, nil
	}
	if len(after) != len(order) {
		return "", "", badFilter("the $skiptoken does not match the $orderby")
	}
	// (k1 after v1) or (k1 = v1 and k2 after v2) or …
	var terms []string
	for i, o := range order {
		var and []string
		for j := range i {
			and = append(and, f.same(cols[j], after[j]))
		}
		terms = append(terms, "("+strings.Join(append(and, f.later(cols[i], o.Desc, after[i])), " AND ")+")")
	}
	return "(" + strings.Join(terms, " OR ") + ")", by, nil
}

// same is the condition that col holds v (none, for nil).
func (f *filter) same(col column, v any) string {
	name := col.ref(f.prefix)
	if v == nil {
		return name + " IS NULL"
	}
	return fmt.Sprintf("%s = $%d", name, f.bindAs(col, v))
}

// later is the condition that col's value comes after v in its direction.
func (f *filter) later(col column, desc bool, v any) string {
	name := col.ref(f.prefix)
	switch {
	case v == nil && desc:
		return sqlFalse // none is last
	case v == nil:
		return name + " IS NOT NULL"
	case desc:
		return fmt.Sprintf("(%s < $%d OR %s IS NULL)", name, f.bindAs(col, v), name)
	}
	return fmt.Sprintf("%s > $%d", name, f.bindAs(col, v))
}

// bindAs binds v as col holds it: a date column's instant (its 00:00Z,
// as a listing's values give it) as that calendar date.
func (f *filter) bindAs(col column, v any) int {
	if t, ok := v.(time.Time); ok && col.kind == colDate {
		f.args = append(f.args, date(t.UTC()))
		return len(f.args)
	}
	return f.bind(v)
}

// bind appends v as the next parameter and returns its number.
func (f *filter) bind(v any) int {
	if t, ok := v.(time.Time); ok {
		v = f.s.at(t)
	}
	f.args = append(f.args, v)
	return len(f.args)
}
