package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// testListingContent lists the same requests with and without their
// content, for every way the store reads a listing (everything, a
// user's own, a traced holding's, a month by the month indexes, an
// $orderby, an offset): without Content, each request is
// the same but for a nil Content; with it, each has the content stored.
func testListingContent(t *testing.T, s store.Store) {
	var rs []store.Request
	for i := range 12 {
		holdings := [][]livestock.CPH{{farmA}, {market, farmB}, {abattoir}}[i%3]
		r := transfer([]string{"keeper1", "keeper2", "other"}[i%3], holdings...)
		r.MovementDate = ymd(2026, time.Month(1+i%2), 1+i)
		r.Content = fmt.Appendf(nil, `{"transferDate":"2026-0%d-%02dT00:00:00Z","n":%d}`, 1+i%2, 1+i, i)
		rs = append(rs, r)
	}
	ids := addRequests(t, s, rs...)
	stored := map[int64]string{}
	for i, id := range ids {
		stored[id] = string(rs[i].Content)
	}
	january := and(cmpf("movementDate", odata.Ge, at("2026-01-01T00:00:00Z")), cmpf("movementDate", odata.Le, at("2026-01-31T23:59:59Z")))
	ordered := inspectorQuery
	ordered.Order = []odata.OrderItem{{Field: "movementDate", Desc: true}, {Field: store.RequestKey}}
	offset := keeper1Query
	offset.Offset, offset.Limit = 2, 3
	for _, tt := range []struct {
		name string
		q    store.RequestQuery
	}{
		{"inspector", inspectorQuery}, {"keeper1", keeper1Query}, {"tracing farm B", tracing(farmB)},
		{"keeper1's January", filtered(keeper1Query, january)}, {"inspector's January", filtered(inspectorQuery, january)},
		{"ordered", ordered}, {"offset", offset},
	} {
		bare := requests(t, s, tt.q)
		tt.q.Content = true
		full := requests(t, s, tt.q)
		if len(full) == 0 || len(bare) != len(full) {
			t.Errorf("%s: %d requests without content, %d with; want the same, at least one", tt.name, len(bare), len(full))
			continue
		}
		for i := range full {
			if got, want := string(full[i].Content), stored[full[i].ID]; got != want {
				t.Errorf("%s: request %d's content = %s, want %s", tt.name, full[i].ID, got, want)
			}
			if bare[i].Content != nil {
				t.Errorf("%s: request %d has content %s when none was asked for", tt.name, bare[i].ID, bare[i].Content)
			}
			full[i].Content = nil
			if diff := cmp.Diff(full[i], bare[i], cmpOpts); diff != "" {
				t.Errorf("%s: request %d without content differs (-with +without):\n%s", tt.name, full[i].ID, diff)
			}
		}
	}
}
