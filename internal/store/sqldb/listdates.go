package sqldb

import (
	"time"

	"github.com/drover-registry/drover/internal/odata"
)

// maxDateSpan is the widest closed range of movement dates that drives a
// listing by date; a wider one is walked in id order.
const maxDateSpan = 92 * 24 * time.Hour

// dateBounds returns the movementDate comparisons that every request a
// $filter selects must meet (those joined to the rest by `and` alone), as
// one tree, when they bound the date on both sides to at most maxDateSpan;
// nil otherwise. only reports that the filter says nothing else.
//
// A listing filtered on a closed range of dates, such as a month, narrows
// each of its branches by date on an index that leads with the branch's
// key then the date (migration 00004), instead of walking the branch in
// id order past every request outside the range: a month of a keeper
// whose requests span years costs its own size, not the keeper's history.
// An open or wide range (movementDate ge X alone) keeps the id-order walk,
// which stops after a page; narrowing by date there would sort years of
// rows to find the first hundred.
func dateBounds(e odata.Expr) (bounds odata.Expr, only bool) {
	var found []odata.Expr
	only = true
	var lower, upper bool
	var from, to time.Time // the highest lower bound, the lowest upper
	var walk func(e odata.Expr)
	walk = func(e odata.Expr) {
		switch e := e.(type) {
		case *odata.And:
			walk(e.Left)
			walk(e.Right)
		case *odata.Comparison:
			at, ok := e.Value.(time.Time)
			if !ok || e.Field != "movementDate" || e.Op == odata.Ne {
				only = false
				return
			}
			if e.Op == odata.Ge || e.Op == odata.Gt || e.Op == odata.Eq {
				if !lower || at.After(from) {
					from = at
				}
				lower = true
			}
			if e.Op == odata.Le || e.Op == odata.Lt || e.Op == odata.Eq {
				if !upper || at.Before(to) {
					to = at
				}
				upper = true
			}
			found = append(found, e)
		default:
			only = false
		}
	}
	walk(e)
	if !lower || !upper || to.Sub(from) > maxDateSpan {
		return nil, false
	}
	bounds = found[0]
	for _, c := range found[1:] {
		bounds = &odata.And{Left: bounds, Right: c}
	}
	return bounds, only
}
