package sqldb

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// TestFieldsMatchStore holds the allow-lists to the fields the store
// package publishes, kind for kind.
func TestFieldsMatchStore(t *testing.T) {
	compatible := map[odata.Kind][]colKind{
		odata.String: {colText, colHolding}, odata.Int: {colInt}, odata.DateTime: {colInstant, colDate},
		odata.Bool: {colBool, colFalse},
	}
	for name, tt := range map[string]struct {
		fields odata.Fields
		cols   map[string]column
	}{
		"requests": {store.RequestFilterFields, requestFields},
		"reviews":  {store.ReviewFilterFields, reviewFields},
	} {
		if got, want := slices.Sorted(maps.Keys(tt.cols)), slices.Sorted(maps.Keys(tt.fields)); !slices.Equal(got, want) {
			t.Errorf("%s: columns for %v, want %v", name, got, want)
		}
		for field, f := range tt.fields {
			if col, ok := tt.cols[field]; ok && !slices.Contains(compatible[f.Kind], col.kind) {
				t.Errorf("%s: %s is kind %v, stored as %v", name, field, f.Kind, col.kind)
			}
		}
	}
}

// TestFilterBindsValues checks that no value of a filter reaches its SQL,
// and that each is bound, in order, after the parameters already there.
func TestFilterBindsValues(t *testing.T) {
	s := &Store{d: &Dialect{BindTime: func(t time.Time) any { return t }}}
	evil := "x' OR 1=1 --"
	e := &odata.Or{
		Left:  &odata.Comparison{Field: "species", Op: odata.Eq, Value: evil},
		Right: &odata.Not{Expr: &odata.Comparison{Field: "trackingId", Op: odata.Ne, Value: "$1"}},
	}
	f := filter{s: s, cols: requestFields, prefix: "r.", args: []any{"already"}}
	sql, err := f.compile(e)
	if err != nil {
		t.Fatal(err)
	}
	want := "((length(r.species) > 0 AND r.species = $2) OR (NOT (r.tracking_id IS NULL OR r.tracking_id <> $3)))"
	if sql != want {
		t.Errorf("SQL = %s\nwant  %s", sql, want)
	}
	if !slices.Equal(f.args, []any{"already", evil, "$1"}) {
		t.Errorf("args = %q", f.args)
	}
	if strings.Contains(sql, "'") {
		t.Errorf("SQL %s holds a quote", sql)
	}
}

// TestOrderBindsValues checks that the values of a keyset are bound, never
// written, and that none (nil) is compared as SQL's NULL in its direction.
func TestOrderBindsValues(t *testing.T) {
	s := &Store{d: &Dialect{BindTime: func(t time.Time) any { return t }}}
	f := filter{s: s, cols: requestFields, prefix: "r.", args: []any{"type"}}
	order := []odata.OrderItem{{Field: "trackingId", Desc: true}, {Field: "userName"}, {Field: "requestId"}}
	cond, by, err := f.order(order, []any{nil, "x' --", int64(7)})
	if err != nil {
		t.Fatal(err)
	}
	wantCond := "((1 = 0) OR (r.tracking_id IS NULL AND r.user_name > $2) OR (r.tracking_id IS NULL AND r.user_name = $3 AND r.id > $4))"
	if cond != wantCond {
		t.Errorf("condition = %s\nwant        %s", cond, wantCond)
	}
	if want := "r.tracking_id DESC NULLS LAST, r.user_name ASC NULLS FIRST, r.id ASC NULLS FIRST"; by != want {
		t.Errorf("ORDER BY %s\nwant     %s", by, want)
	}
	if !slices.Equal(f.args, []any{"type", "x' --", "x' --", int64(7)}) {
		t.Errorf("args = %q", f.args)
	}
	if _, _, err := f.order([]odata.OrderItem{{Field: "holding"}}, nil); err == nil {
		t.Error("an order by holding was compiled")
	}
}
