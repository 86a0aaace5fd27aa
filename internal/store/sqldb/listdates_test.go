package sqldb

import (
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/odata"
)

// TestDateBounds: only a range closed on both sides by conjuncts, and no
// wider than maxDateSpan, drives a listing by date.
func TestDateBounds(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	md := func(op odata.Op, d string) odata.Expr {
		return &odata.Comparison{Field: "movementDate", Op: op, Value: day(d)}
	}
	and := func(l, r odata.Expr) odata.Expr { return &odata.And{Left: l, Right: r} }
	or := func(l, r odata.Expr) odata.Expr { return &odata.Or{Left: l, Right: r} }
	species := &odata.Comparison{Field: "species", Op: odata.Eq, Value: "Sheep"}
	month := and(md(odata.Ge, "2026-03-01"), md(odata.Lt, "2026-04-01"))
	for _, tt := range []struct {
		name   string
		filter odata.Expr
		want   int  // comparisons in the bounds; 0 for none
		only   bool // the filter is the bounds and nothing else
	}{
		{"no filter", nil, 0, false},
		{"a month", month, 2, true},
		{"a month and a species", and(species, month), 2, false},
		{"one day", md(odata.Eq, "2026-03-01"), 1, true},
		{"lower bound only", md(odata.Ge, "2026-03-01"), 0, false},
		{"upper bound only", and(species, md(odata.Le, "2026-03-01")), 0, false},
		{"a year", and(md(odata.Ge, "2026-01-01"), md(odata.Lt, "2027-01-01")), 0, false},
		{"a year narrowed to a month", and(and(md(odata.Ge, "2026-01-01"), md(odata.Lt, "2027-01-01")), month), 4, true},
		{"either of two months", or(month, and(md(odata.Ge, "2026-08-01"), md(odata.Lt, "2026-09-01"))), 0, false},
		{"not a month", &odata.Not{Expr: month}, 0, false},
		{"ne is no bound", and(md(odata.Ne, "2026-03-02"), month), 2, false},
		{"request date", and(&odata.Comparison{Field: "requestDate", Op: odata.Ge, Value: day("2026-03-01")},
			&odata.Comparison{Field: "requestDate", Op: odata.Lt, Value: day("2026-04-01")}), 0, false},
	} {
		bounds, only := dateBounds(tt.filter)
		if got := countComparisons(bounds); got != tt.want || only != tt.only {
			t.Errorf("%s: bounds of %d comparisons, only %v; want %d, %v", tt.name, got, only, tt.want, tt.only)
		}
	}
}

func countComparisons(e odata.Expr) int {
	switch e := e.(type) {
	case *odata.And:
		return countComparisons(e.Left) + countComparisons(e.Right)
	case *odata.Comparison:
		return 1
	}
	return 0
}
