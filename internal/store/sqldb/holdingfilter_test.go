package sqldb

import (
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// TestTracedHolding: only a `holding eq` that the whole filter requires
// sends an inspector's listing to that holding's index; the listing
// itself is the same either way (storetest's HoldingFilter).
func TestTracedHolding(t *testing.T) {
	h := func(op odata.Op) odata.Expr { return &odata.Comparison{Field: "holding", Op: op, Value: "01/100/0257"} }
	species := &odata.Comparison{Field: "species", Op: odata.Eq, Value: "Sheep"}
	for _, tt := range []struct {
		name   string
		filter odata.Expr
		traced bool
	}{
		{"none", nil, false},
		{"eq", h(odata.Eq), true},
		{"eq and a species", &odata.And{Left: species, Right: h(odata.Eq)}, true},
		{"ne", h(odata.Ne), false},
		{"not eq", &odata.Not{Expr: h(odata.Eq)}, false},
		{"eq or a species", &odata.Or{Left: h(odata.Eq), Right: species}, false},
	} {
		got, ok := tracedHolding(tt.filter)
		if ok != tt.traced || ok && got.Value != "01/100/0257" {
			t.Errorf("%s: tracedHolding = %v, %v; want traced %v", tt.name, got, ok, tt.traced)
		}
		s := &Store{d: &Dialect{BindTime: func(t time.Time) any { return t }},
			tune: Tuning{ListBranch: "{branch}", ListUnion: " UNION ", ListMerge: "{branches} ORDER BY 1 LIMIT {limit}"}}
		sql, _, err := s.requestsQuery(store.RequestQuery{Type: store.RequestTransfer, All: true, Filter: tt.filter, Limit: 20})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if byIndex := strings.Contains(sql, "FROM request_holdings h"); byIndex != tt.traced {
			t.Errorf("%s: the inspector's listing reads request_holdings: %v, want %v\n%s", tt.name, byIndex, tt.traced, sql)
		}
		if tt.traced && strings.Contains(sql, "fh.cph") {
			t.Errorf("%s: the traced term is still in the filter:\n%s", tt.name, sql)
		}
	}
}
