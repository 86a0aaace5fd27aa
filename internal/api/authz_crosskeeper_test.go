package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestCrossKeeperMatrix sends each row of crossKeeperMatrix: an on-move
// of keeper1's sheep reported by another keeper, the reads of the sheep
// while it awaits keeper1, and the reviews.
func TestCrossKeeperMatrix(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		b.addStranger()
		k1 := b.token("keeper1")
		for _, row := range crossKeeperMatrix {
			reporter := b.token(row.reporter)
			tag := fmt.Sprintf("UK0130181 %05d", row.tag)
			animal := fmt.Sprintf("/v1/animals/UK0130181%%20%05d", row.tag)
			res := b.post(reporter, "TransferRequests", map[string]any{"content": transfer(day(-1), farm1, row.at, row.at, sheep("130181", row.tag), nil)})
			if res.status != row.submit {
				t.Errorf("%s reporting %s moved on from farm1: %d, want %d: %s", row.reporter, tag, res.status, row.submit, res.body)
				continue
			}
			on := b.await(reporter, "TransferRequests", postedID(res))
			for _, c := range []struct {
				who, token string
				want       int
			}{{"keeper1", k1, row.ownerReads}, {row.reporter, reporter, row.reporterReads}} {
				if res := b.do(http.MethodGet, animal, c.token, nil); res.status != c.want {
					t.Errorf("%s reads %s after %s's on-move: %d, want %d", c.who, tag, row.reporter, res.status, c.want)
				}
			}
			review := map[string]any{"content": decide(farm1, on.RequestID, true, 1)}
			if res := b.post(reporter, "ReviewHoldingMovementRequests", review); res.status != row.reporterReviews {
				t.Errorf("%s reviewing their own on-move as farm1: %d, want %d", row.reporter, res.status, row.reporterReviews)
			}
			b.wantOn(row.reporter+"'s on-move before keeper1's review", map[string]string{tag: farm1})
			if res := b.post(k1, "ReviewHoldingMovementRequests", review); res.status != row.ownerReviews {
				t.Errorf("keeper1 reviewing %s's on-move: %d, want %d", row.reporter, res.status, row.ownerReviews)
			} else if r := b.await(k1, "ReviewHoldingMovementRequests", postedID(res)); !r.applied() {
				t.Errorf("keeper1's review of %s's on-move: %+v", row.reporter, r)
			}
			b.wantOn(row.reporter+"'s on-move accepted by keeper1", map[string]string{tag: row.at})
		}
	})
}
