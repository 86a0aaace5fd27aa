package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestRequestUpdatesStayOnTheirPage stores requests of a transfer's size,
// then gives each its outcome, as their jobs do: an update that finds
// room on the row's page is HOT (no index touched), and the room is what
// migration 00021 leaves on each page. Without it none of these updates
// is HOT, and each writes into every index of the table.
// The counts are in pg_stat_user_tables once the store's backends exit.
func TestRequestUpdatesStayOnTheirPage(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	s := open(t, u)
	ctx := t.Context()
	const n = 400
	content := []byte(`{"note":"` + strings.Repeat("x", 300) + `"}`) // bench/movements' transfers are about 300 bytes
	ids := make([]int64, n)
	err := s.InTx(ctx, func(ctx context.Context, tx store.Tx) (err error) {
		for i := range ids {
			r := store.Request{Type: store.RequestTransfer, UserName: "keeper1", CorrelationID: "c", Content: content,
				Holdings: []livestock.CPH{livestock.MustCPH("01/100/0257"), livestock.MustCPH("01/100/0258")}}
			if ids[i], err = tx.InsertRequest(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// All in one transaction: no earlier version is dead before it ends,
	// so none can be pruned to make room, and only room left free by
	// the fill factor lets an update stay on its page, whatever other
	// sessions hold.
	err = s.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
		for _, id := range ids {
			r, err := tx.LockRequest(ctx, id)
			if err != nil {
				return err
			}
			r.Status, r.UpdatedDate = store.StatusFail, r.UpdatedDate.Add(time.Second)
			r.Errors = []livestock.FieldError{{Code: "S005", Message: "the animal is not on the source holding"}}
			if err := tx.UpdateRequest(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c := tableStats(t, s, u, `SELECT coalesce(n_tup_upd, 0), coalesce(n_tup_hot_upd, 0)
		FROM pg_stat_user_tables WHERE relname = 'requests' AND schemaname = current_schema()`,
		func(c []int64) bool { return c[0] >= n })
	upd, hot := c[0], c[1]
	if upd < n || hot*4 < upd {
		t.Errorf("%d requests given their outcome: %d updates, %d of them HOT; want at least a quarter", n, upd, hot)
	}
	t.Logf("%d of %d updates HOT", hot, upd)
}
