package sqldb_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// listingShapes are listings of each kind of branch: the user's own, and
// an inspector's of every request or of one holding's, by one month, two
// or none, with a filter that reads the request or only dates.
func listingShapes() map[string]store.RequestQuery {
	day := func(s string) time.Time { d, _ := time.Parse(time.RFC3339, s); return d }
	month := &odata.And{
		Left:  &odata.Comparison{Field: "movementDate", Op: odata.Ge, Value: day("2026-03-01T00:00:00Z")},
		Right: &odata.Comparison{Field: "movementDate", Op: odata.Le, Value: day("2026-04-30T23:59:59Z")}}
	march := &odata.And{
		Left:  &odata.Comparison{Field: "movementDate", Op: odata.Ge, Value: day("2026-03-01T00:00:00Z")},
		Right: &odata.Comparison{Field: "movementDate", Op: odata.Lt, Value: day("2026-04-01T00:00:00Z")}}
	sheep := &odata.Comparison{Field: "species", Op: odata.Eq, Value: "Sheep"}
	both := func(l, r odata.Expr) odata.Expr { return &odata.And{Left: l, Right: r} }
	keeper := func(f odata.Expr) store.RequestQuery {
		return store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper2", Filter: f}
	}
	traced := &odata.Comparison{Field: "holding", Op: odata.Eq, Value: "01/100/0002"}
	tracing := func(f odata.Expr) store.RequestQuery {
		q := store.RequestQuery{Type: store.RequestTransfer, All: true, Filter: traced}
		if f != nil {
			q.Filter = both(f, traced)
		}
		return q
	}
	return map[string]store.RequestQuery{
		"keeper, no filter":              keeper(nil),
		"keeper, two months":             keeper(month),
		"keeper, two months of sheep":    keeper(both(month, sheep)),
		"keeper, sheep":                  keeper(sheep),
		"keeper, a month":                keeper(march),
		"inspector, a month":             {Type: store.RequestTransfer, All: true, Filter: march},
		"tracing, a month":               tracing(march),
		"tracing, no filter":             tracing(nil),
		"tracing, two months":            tracing(month),
		"tracing, two months of sheep":   tracing(both(month, sheep)),
		"tracing, sheep":                 tracing(sheep),
		"inspector, two months":          {Type: store.RequestTransfer, All: true, Filter: month},
		"inspector, two months of sheep": {Type: store.RequestTransfer, All: true, Filter: both(month, sheep)},
	}
}

// TestListingBranchesMerged: on SQLite every branch of a listing is read
// in id order from its index, so that the merge of the branches reads
// each only as far as the page needs (Tuning.ListMerge). A branch
// SQLite had to sort would be read whole first: its plan shows a
// temporary B-tree.
func TestListingBranchesMerged(t *testing.T) {
	t.Parallel()
	s := unwrap(t, storetest.OpenSQLite(t))
	for name, q := range listingShapes() {
		for _, page := range [][2]int{{20, 0}, {20, 40}, {0, 0}} {
			q.Limit, q.Offset = page[0], page[1]
			plan, err := sqldb.ListingPlan(t.Context(), s, q)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			joined := strings.Join(plan, "\n")
			if strings.Contains(joined, "UNION") && !strings.Contains(joined, "MERGE") {
				t.Errorf("%s, page %v: the branches are not merged:\n%s", name, page, joined)
			}
			if strings.Contains(joined, "TEMP B-TREE") {
				t.Errorf("%s, page %v: a branch is sorted before it is merged:\n%s", name, page, joined)
			}
		}
	}
}

// TestListingPagesMerged: every page of a listing, each of its branches
// read only as far as the page needs, is the same slice of the whole
// listing (every branch read to its end), for every kind of branch, page
// and offset.
func TestListingPagesMerged(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		ctx := t.Context()
		users := []string{"keeper1", "keeper2", "other"}
		err := st.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
			for i := range 400 {
				a := livestock.MustCPH(fmt.Sprintf("01/100/%04d", 1+i%3))
				b := livestock.MustCPH(fmt.Sprintf("01/100/%04d", 1+(i*13)%160))
				r := store.Request{Type: store.RequestTransfer, Status: store.StatusSuccess, UserName: users[i%3],
					CorrelationID: fmt.Sprintf("c-%d", i), Holdings: []livestock.CPH{a, b}, Content: []byte(`{}`),
					Species:      []livestock.Species{livestock.SpeciesSheep, livestock.SpeciesGoats}[i%2],
					MovementDate: time.Date(2026, time.Month(1+i*5%12), 1+i%28, 0, 0, 0, 0, time.UTC)}
				if i%10 == 0 {
					r.Type = store.RequestReview
				}
				if _, err := tx.InsertRequest(ctx, r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ids := func(q store.RequestQuery) []int64 {
			list, err := st.Requests(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			ids := []int64{}
			for _, r := range list {
				ids = append(ids, r.ID)
			}
			return ids
		}
		for name, q := range listingShapes() {
			all := ids(q)
			if len(all) < 10 || !slices.IsSorted(all) || len(slices.Compact(slices.Clone(all))) != len(all) {
				t.Fatalf("%s: the whole listing is %v: too short to page, out of order or with repeats", name, all)
			}
			for _, page := range [][2]int{{7, 0}, {7, 3}, {1, 0}, {25, 50}, {1, len(all) - 1}, {5, len(all)}} {
				q.Limit, q.Offset = page[0], page[1]
				want := all[min(page[1], len(all)):min(page[1]+page[0], len(all))]
				if got := ids(q); !slices.Equal(got, want) {
					t.Errorf("%s, $top=%d $skip=%d: %v, want %v", name, page[0], page[1], got, want)
				}
			}
		}
	})
}
