package sqldb

import (
	"slices"
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
		want   int     // comparisons in the bounds; 0 for none
		only   bool    // the filter is the bounds and nothing else
		months []int64 // the month buckets read
	}{
		{"no filter", nil, 0, false, nil},
		{"a month", month, 2, true, []int64{202603}},
		{"a month and a species", and(species, month), 2, false, []int64{202603}},
		{"one day", md(odata.Eq, "2026-03-01"), 1, true, []int64{202603}},
		{"lower bound only", md(odata.Ge, "2026-03-01"), 0, false, nil},
		{"upper bound only", and(species, md(odata.Le, "2026-03-01")), 0, false, nil},
		{"a year", and(md(odata.Ge, "2026-01-01"), md(odata.Lt, "2027-01-01")), 0, false, nil},
		{"a year narrowed to a month", and(and(md(odata.Ge, "2026-01-01"), md(odata.Lt, "2027-01-01")), month), 4, true, []int64{202603}},
		{"either of two months", or(month, and(md(odata.Ge, "2026-08-01"), md(odata.Lt, "2026-09-01"))), 0, false, nil},
		{"not a month", &odata.Not{Expr: month}, 0, false, nil},
		{"ne is no bound", and(md(odata.Ne, "2026-03-02"), month), 2, false, []int64{202603}},
		{"le the first of a month reaches it", and(md(odata.Ge, "2026-03-15"), md(odata.Le, "2026-05-01")), 2, true, []int64{202603, 202604, 202605}},
		{"across a new year", and(md(odata.Gt, "2025-12-31"), md(odata.Lt, "2026-01-31")), 2, true, []int64{202512, 202601}},
		{"lt tightened to the same instant", and(and(md(odata.Le, "2026-04-01"), md(odata.Lt, "2026-04-01")), md(odata.Ge, "2026-03-01")), 3, true, []int64{202603}},
		{"request date", and(&odata.Comparison{Field: "requestDate", Op: odata.Ge, Value: day("2026-03-01")},
			&odata.Comparison{Field: "requestDate", Op: odata.Lt, Value: day("2026-04-01")}), 0, false, nil},
	} {
		bounds, buckets, only := dateBounds(tt.filter)
		if got := countComparisons(bounds); got != tt.want || only != tt.only {
			t.Errorf("%s: bounds of %d comparisons, only %v; want %d, %v", tt.name, got, only, tt.want, tt.only)
		}
		if !slices.Equal(buckets, tt.months) {
			t.Errorf("%s: months %v, want %v", tt.name, buckets, tt.months)
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
