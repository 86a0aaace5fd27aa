package sqldb_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/drover-registry/drover/internal/store"
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
					Holdings: []string{"01/100/0257", "01/100/0258"}, Content: []byte(`{"x": 1}`)}
				if err := st.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
					_, err := tx.InsertRequest(ctx, r)
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
			q := store.RequestQuery{Type: store.RequestTransfer, UserName: "keeper1", Holdings: []string{"01/100/0257"}, Limit: 21}
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
