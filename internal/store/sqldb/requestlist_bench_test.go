package sqldb_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// BenchmarkRequests reads a page of 20 transfer requests (and the one
// after it, which says whether there is a next page), as
// GET /v1/TransferRequests?$top=20 does for a keeper.
func BenchmarkRequests(b *testing.B) {
	for _, d := range storetest.Openers {
		b.Run(d.Name, func(b *testing.B) {
			st := d.Open(b)
			ctx := context.Background()
			for i := range 100 {
				r := store.Request{Type: store.RequestTransfer, Status: store.StatusSuccess, UserName: "keeper1",
					TrackingID: fmt.Sprintf("B-%d", i), CorrelationID: fmt.Sprintf("c-%d", i),
					Holdings: []livestock.CPH{livestock.MustCPH("01/100/0257"), livestock.MustCPH("01/100/0258")}, Content: []byte(`{"x": 1}`)}
				if err := st.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
					_, err := tx.InsertRequest(ctx, r)
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
			q := store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper1", Limit: 21}
			b.ReportAllocs()
			for b.Loop() {
				list, err := st.Requests(ctx, q)
				if err != nil || len(list) != 21 {
					b.Fatalf("%d requests, %v", len(list), err)
				}
			}
		})
	}
}

// BenchmarkTraceHolding is an inspector's first page of the requests that
// concern one holding, among 20,000 of which one in a hundred do:
// `holding eq` reads the holding's index; `not (holding ne …)`, the same
// requests, is not traced and reads requests in id order until the page
// is full.
func BenchmarkTraceHolding(b *testing.B) {
	for _, d := range storetest.Openers {
		b.Run(d.Name, func(b *testing.B) {
			st := d.Open(b)
			ctx := context.Background()
			const n, traced = 20_000, "01/100/0999"
			fill(b, st, n, func(i int) store.Request {
				h := []livestock.CPH{livestock.MustCPH(fmt.Sprintf("02/%03d/%04d", i%500, i%7000)), livestock.MustCPH("03/100/0001")}
				if i%100 == 99 {
					h[1] = livestock.MustCPH(traced)
				}
				return store.Request{Type: store.RequestTransfer, Status: store.StatusSuccess, UserName: "keeper1",
					CorrelationID: fmt.Sprintf("c-%d", i), Holdings: h, Content: []byte(`{}`)}
			})
			eq := &odata.Comparison{Field: "holding", Op: odata.Eq, Value: traced}
			for _, f := range []struct {
				name   string
				filter odata.Expr
			}{{"traced", eq}, {"scanned", &odata.Not{Expr: &odata.Comparison{Field: "holding", Op: odata.Ne, Value: traced}}}} {
				b.Run(f.name, func(b *testing.B) {
					q := store.RequestQuery{Type: store.RequestTransfer, All: true, Filter: f.filter, Limit: 21}
					for b.Loop() {
						list, err := st.Requests(ctx, q)
						if err != nil || len(list) != 21 {
							b.Fatalf("%d requests, %v", len(list), err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkKeeperMonth reads the first 101 of a keeper's transfer requests
// moved in one month, among 20,000 of four keepers over a year, as the
// month read of bench/movements does: one branch, read straight from
// requests_user_month.
func BenchmarkKeeperMonth(b *testing.B) {
	for _, d := range storetest.Openers {
		b.Run(d.Name, func(b *testing.B) {
			st := d.Open(b)
			ctx := context.Background()
			users := []string{"keeper1", "keeper2", "keeper3", "keeper4"}
			fill(b, st, 20_000, func(i int) store.Request {
				return store.Request{Type: store.RequestTransfer, Status: store.StatusSuccess, UserName: users[i%4],
					CorrelationID: fmt.Sprintf("c-%d", i), Holdings: []livestock.CPH{livestock.MustCPH(fmt.Sprintf("01/100/%04d", i%50+1))},
					Content: []byte(`{"x": 1}`), Species: livestock.SpeciesSheep,
					MovementDate: time.Date(2026, time.Month(1+(i/4)%12), 1+i%28, 0, 0, 0, 0, time.UTC)}
			})
			day := func(s string) time.Time { d, _ := time.Parse(time.RFC3339, s); return d }
			month := &odata.And{
				Left:  &odata.Comparison{Field: "movementDate", Op: odata.Ge, Value: day("2026-03-01T00:00:00Z")},
				Right: &odata.Comparison{Field: "movementDate", Op: odata.Le, Value: day("2026-03-31T23:59:59Z")}}
			q := store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper1", Filter: month, Limit: 101}
			b.ReportAllocs()
			for b.Loop() {
				list, err := st.Requests(ctx, q)
				if err != nil || len(list) != 101 {
					b.Fatalf("%d requests, %v", len(list), err)
				}
			}
		})
	}
}

// fill stores n requests, the i-th made by req, a thousand a transaction,
// and refreshes the planner's statistics.
func fill(b *testing.B, st store.Store, n int, req func(i int) store.Request) {
	ctx := context.Background()
	for start := 0; start < n; start += 1000 {
		if err := st.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
			for i := start; i < min(start+1000, n); i++ {
				if _, err := tx.InsertRequest(ctx, req(i)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	if err := sqldb.Analyze(unwrap(b, st)); err != nil {
		b.Fatal(err)
	}
}
