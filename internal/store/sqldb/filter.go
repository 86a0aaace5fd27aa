package sqldb

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
)

// filter compiles a $filter tree into a SQL condition on the columns of
// cols (each prefixed by prefix, a table alias and a dot, or ""). Values
// are never written into the SQL: each is appended to args and named by
// its $N.
//
// Every comparison is two-valued, so that `not` means what it says: on a
// column that can hold none (NULL, or the empty species) none equals
// nothing and differs from everything, so `trackingId ne 'x'` and `not
// (trackingId eq 'x')` both include the requests without one, and an
// order comparison never includes none.
type filter struct {
	s      *Store
	cols   map[string]column
	prefix string
	args   []any
}

func (f *filter) compile(e odata.Expr) (string, error) {
	switch e := e.(type) {
	case nil:
		return sqlTrue, nil
	case *odata.Comparison:
		return f.comparison(e)
	case *odata.Call:
		return f.call(e)
	case *odata.Not:
		inner, err := f.compile(e.Expr)
		return "(NOT " + inner + ")", err
	case *odata.And:
		return f.pair(e.Left, "AND", e.Right)
	case *odata.Or:
		return f.pair(e.Left, "OR", e.Right)
	}
	return "", badFilter(fmt.Sprintf("$filter has a node of type %T", e))
}

func (f *filter) pair(left odata.Expr, op string, right odata.Expr) (string, error) {
	l, err := f.compile(left)
	if err != nil {
		return "", err
	}
	r, err := f.compile(right)
	return "(" + l + " " + op + " " + r + ")", err
}

func (f *filter) comparison(c *odata.Comparison) (string, error) {
	col, ok := f.cols[c.Field]
	if !ok {
		return "", &livestock.Error{Kind: livestock.KindInvalid,
			Detail: fmt.Sprintf("$filter cannot use the field %q", c.Field),
			Fields: []livestock.FieldError{{Code: livestock.CodeFilterField, Source: "$filter", Value: c.Field,
				Message: "this field cannot be filtered on; use one of " + strings.Join(slices.Sorted(maps.Keys(f.cols)), ", ")}}}
	}
	op, ok := sqlOps[c.Op]
	if !ok {
		return "", badFilter(fmt.Sprintf("$filter has no operator %q", c.Op))
	}
	var v any
	switch x := c.Value.(type) {
	case odata.Null:
		return f.null(col, c)
	case string:
		if col.kind == colHolding {
			return f.holding(col, c, x)
		}
		ok, v = col.kind == colText, x
	case int64:
		ok, v = col.kind == colInt, x
	case int:
		ok, v = col.kind == colInt, int64(x)
	case bool:
		ok, v = col.kind == colBool || col.kind == colFalse, x
	case time.Time:
		switch col.kind {
		case colDate:
			return f.date(col, c.Op, x), nil
		case colInstant:
			return f.instant(col, c.Op, x), nil
		}
		ok = false
	}
	if !ok {
		return "", badFilter(fmt.Sprintf("$filter compares %s with a value of the wrong type", c.Field))
	}
	return f.leaf(col, op, v), nil
}

// call is a string function of a text column, in SQL both stores read
// alike and that matches letter case exactly (SQLite's LIKE would not):
// the literal and its length in characters are bound, never written.
// Two-valued as leaf is: a column with no value matches nothing, so `not
// contains(…)` takes it in.
func (f *filter) call(c *odata.Call) (string, error) {
	col, ok := f.cols[c.Field]
	if !ok || col.kind != colText {
		return "", badFilter(fmt.Sprintf("$filter applies %s() to %s, which is not a text field", c.Func, c.Field))
	}
	name := col.ref(f.prefix)
	var cond string
	switch {
	case c.Value == "": // every text has the empty string in it
		cond = sqlTrue
	case c.Func == "contains":
		f.args = append(f.args, c.Value)
		cond = fmt.Sprintf("replace(%s, $%d, '') <> %s", name, len(f.args), name)
	case c.Func == "startswith":
		f.args = append(f.args, c.Value, int64(utf8.RuneCountInString(c.Value)))
		cond = fmt.Sprintf("substr(%s, 1, $%d) = $%d", name, len(f.args), len(f.args)-1)
	case c.Func == "endswith":
		// A start before the first character gives a shorter text, which
		// cannot equal the literal, on either store.
		f.args = append(f.args, c.Value, int64(utf8.RuneCountInString(c.Value)))
		cond = fmt.Sprintf("substr(%s, length(%s) - $%d + 1) = $%d", name, name, len(f.args), len(f.args)-1)
	default:
		return "", badFilter(fmt.Sprintf("$filter has no function %q", c.Func))
	}
	if col.none == alwaysSet {
		return "(" + cond + ")", nil
	}
	_, some := col.noneSome(name)
	return "(" + some + " AND " + cond + ")", nil
}

// holding is whether the request is one of those that concern the CPH
// cph: its (cph, request_id) is in request_holdings, the primary key.
// Holdings have no order, so only eq and ne compare them.
func (f *filter) holding(col column, c *odata.Comparison, cph string) (string, error) {
	if c.Op != odata.Eq && c.Op != odata.Ne {
		return "", badFilter(fmt.Sprintf("$filter compares %s with %s: a holding takes eq or ne", c.Field, c.Op))
	}
	f.args = append(f.args, cph)
	cond := fmt.Sprintf("EXISTS (SELECT 1 FROM request_holdings fh WHERE fh.cph = $%d AND fh.request_id = %s%s)", len(f.args), f.prefix, col.name)
	if c.Op == odata.Ne {
		cond = "NOT " + cond
	}
	return "(" + cond + ")", nil
}

// null is whether col has no value (eq null) or has one (ne null), as
// leaf reads "none" for the column.
func (f *filter) null(col column, c *odata.Comparison) (string, error) {
	if col.kind == colHolding {
		return "", badFilter(fmt.Sprintf("$filter compares %s with null: a holding is named by its CPH", c.Field))
	}
	none, some := col.noneSome(col.ref(f.prefix))
	if c.Op == odata.Ne {
		return "(" + some + ")", nil
	}
	return "(" + none + ")", nil
}

// leaf is `column op $N`, made two-valued on a column that can hold none
// (NULL, or the empty string where that stands for none).
func (f *filter) leaf(col column, op string, v any) string {
	f.args = append(f.args, v)
	name := col.ref(f.prefix)
	cond := fmt.Sprintf("%s %s $%d", name, op, len(f.args))
	if col.none == alwaysSet {
		return cond
	}
	none, some := col.noneSome(name)
	if op == "<>" {
		return "(" + none + " OR " + cond + ")"
	}
	return "(" + some + " AND " + cond + ")"
}

func badFilter(detail string) error {
	return &livestock.Error{Kind: livestock.KindInvalid, Detail: detail,
		Fields: []livestock.FieldError{{Code: livestock.CodeFilterSyntax, Source: "$filter", Message: detail}}}
}
