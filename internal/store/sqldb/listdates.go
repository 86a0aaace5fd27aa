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
// one tree, when they bound the date on both sides to at most maxDateSpan,
// with the month buckets (Month) the range touches; nil otherwise. only
// reports that the filter says nothing else.
//
// A listing filtered on a closed range of dates, such as a month, reads
// each of its branches one month at a time, on an index that leads with
// the branch's key, then the month, then the id (migration 00006): each
// month is walked in id order and stops at the page's end, so a month of a
// keeper whose requests span years costs about a page, not the keeper's
// history nor the month's size. The bounds are checked in the same index,
// so a range that starts or ends inside a month reads that month's
// requests outside the range too, at worst. An open or wide range
// (movementDate ge X alone) keeps the id-order walk, which stops after a
// page as well.
func dateBounds(e odata.Expr) (bounds odata.Expr, buckets []int64, only bool) {
	var found []odata.Expr
	only = true
	var lower, upper, strict bool
	var from, to time.Time // the highest lower bound, the lowest upper; strict: to is excluded
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
				if !upper || at.Before(to) || at.Equal(to) && e.Op == odata.Lt {
					to, strict = at, e.Op == odata.Lt
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
		return nil, nil, false
	}
	last := to
	if strict {
		last = to.Add(-time.Nanosecond) // lt the first of a month reaches no day of that month
	}
	bounds = found[0]
	for _, c := range found[1:] {
		bounds = &odata.And{Left: bounds, Right: c}
	}
	return bounds, months(from, last), only
}
