package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// staleReviewMatrix: keeper2 reviews a transfer of keeper1's that keeper1
// has corrected twice since it was sent (issue 20). Each row names one
// version (sent, first correction, latest) and whether the review is
// submitted now (its checks run at submission) or was queued before the
// corrections (its job checks it). Only the latest version may be
// reviewed; any other is refused with the live 21373, a 400 at
// submission (status) or a Fail when its job runs. The latest row is last:
// it applies the movement.
var staleReviewMatrix = []struct {
	names  string // "sent", "first" or "latest"
	queued bool   // stored before the corrections, checked by its job
	status int    // the submission's answer; 0 for a queued review
	want   string // "21373", or "applied"
}{
	{"sent", false, st400, "21373"},
	{"first", false, st400, "21373"},
	{"sent", true, 0, "21373"},
	{"first", true, 0, "21373"},
	{"latest", false, st201, "applied"},
}

func TestStaleReviewMatrix(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1), nil))
		version := map[string]int64{"sent": sent.RequestID}
		prev := sent.RequestID
		for _, v := range []struct {
			name string
			tags []int
		}{{"first", []int{1, 2}}, {"latest", []int{1, 2, 3}}} {
			fix := transfer(day(-1), farm1, farm2, farm1, sheep("130181", v.tags...), nil)
			fix["requestToBeCorrected_ID"] = prev
			c := b.submit(k1, "CorrectTransferRequests", fix)
			if !c.applied() {
				t.Fatalf("correction %s = %+v", v.name, c)
			}
			version[v.name], prev = c.RequestID, c.RequestID
		}
		review := func(id int64) map[string]any {
			return map[string]any{"holding": farm2, "reviewMovement": map[string]any{"requestId": id, "isAccepted": true, "arrivalDate": day(0)}}
		}
		for _, row := range staleReviewMatrix {
			id := version[row.names]
			var got record
			if row.queued {
				stored := review(id)
				stored["reviewMovement"].(map[string]any)["arrivalDate"] = day(0) + "T00:00:00Z" // as Submit stores it
				got = b.await(k2, "ReviewHoldingMovementRequests", b.insertReview("keeper2", id, stored))
			} else {
				res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": review(id)})
				if res.status != row.status {
					t.Errorf("review naming the %s version: %d, want %d: %s", row.names, res.status, row.status, res.body)
					continue
				}
				if res.status != st201 {
					if !strings.Contains(string(res.body), `"`+row.want+`"`) {
						t.Errorf("review naming the %s version: %s, want %s", row.names, res.body, row.want)
					}
					continue
				}
				got = b.await(k2, "ReviewHoldingMovementRequests", postedID(res))
			}
			errs, _ := got.codes()
			switch {
			case row.want == "applied" && !got.applied():
				t.Errorf("review naming the %s version: %+v, want applied", row.names, got)
			case row.want != "applied" && (got.RequestStatus != "Fail" || len(errs) != 1 || errs[0] != row.want):
				t.Errorf("queued review naming the %s version: %s %v, want Fail %s", row.names, got.RequestStatus, got.Errors, row.want)
			}
		}
		b.wantOn("the latest version reviewed", map[string]string{"UK0130181 00001": farm2, "UK0130181 00003": farm2})
		if res := b.do(http.MethodGet, "/v1/animals/UK0130181%2000003", k2, nil); res.status != st200 {
			t.Errorf("keeper2 reads a sheep of the latest version after the review: %d", res.status)
		}
	})
}
