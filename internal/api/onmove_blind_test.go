package api_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// bare is request id's record as token reads it, without what differs
// between any two requests: ids, times, links and content.
func (b *bundle) bare(token, collection string, id int64) map[string]any {
	b.t.Helper()
	res := b.do(http.MethodGet, fmt.Sprintf("/v1/%s(%d)", collection, id), token, nil)
	if res.status != http.StatusOK {
		b.t.Fatalf("GET %s(%d) = %d %s", collection, id, res.status, res.body)
	}
	var rec map[string]any
	res.decode(&rec)
	for k := range rec {
		if strings.HasPrefix(k, "@") || strings.HasSuffix(strings.ToLower(k), "id") || strings.HasSuffix(k, "Date") ||
			k == "content" || k == "trackingId" || k == "documentRef" {
			delete(rec, k)
		}
	}
	return rec
}

// TestOnMoveOutcomeRevealsNoTags: keeper2's on-moves off keeper1's farm of
// a sheep that is there and of a tag never issued end alike (awaiting
// keeper1), so keeper2 learns nothing of what farm1 holds, and they hold
// nothing: keeper1 still moves the sheep elsewhere, and still gets an
// error for each tag of their own off-move that cannot move. Accepting
// the reports, keeper1 moves no animal that is not on farm1, and is told
// which.
func TestOnMoveOutcomeRevealsNoTags(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		const there, absent = "UK0130181 00001", "UK0130181 00030"

		on := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 1), nil))
		off := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 30), nil))
		a, z := b.bare(k2, "TransferRequests", on.RequestID), b.bare(k2, "TransferRequests", off.RequestID)
		if fmt.Sprint(a) != fmt.Sprint(z) {
			t.Errorf("keeper2's on-moves differ:\n%s: %v\n%s: %v", there, a, absent, z)
		}
		if !on.applied() || len(on.Warnings) != 0 {
			t.Errorf("keeper2's on-move: %s %+v %+v, want it to await keeper1", on.RequestStatus, on.Errors, on.Warnings)
		}

		// keeper1's own off-move of the two tags and one of keeper2's:
		// an error for each tag that cannot move, not a match to the report.
		mixed := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, append(sheep("130181", 30), sheep("130186", 1)...), nil))
		var targets []string
		for _, e := range mixed.Errors {
			targets = append(targets, e.Target)
		}
		if mixed.RequestStatus != "Fail" || !slices.Contains(targets, "content.movementGroups[0].devices[0].tagNumber") ||
			!slices.Contains(targets, "content.movementGroups[0].devices[1].tagNumber") {
			t.Errorf("keeper1's own off-move: %s %+v, want an error for each tag", mixed.RequestStatus, mixed.Errors)
		}

		// The report holds nothing: keeper1 moves the sheep to their common.
		own := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, common1, farm1, sheep("130181", 1), nil))
		if !own.applied() {
			t.Fatalf("keeper1 moving their own sheep while keeper2's report awaits them: %s %+v", own.RequestStatus, own.Errors)
		}
		b.wantOn("keeper1's own move", map[string]string{there: common1})

		for _, tc := range []struct {
			name string
			id   int64
			tag  string
		}{{"moved since", on.RequestID, there}, {"never issued", off.RequestID, absent}} {
			// Nothing accepted can move: the review fails, naming the tag.
			review := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, tc.id, true, 1))
			if review.RequestStatus != "Fail" || len(review.Errors) != 1 || !strings.Contains(review.Errors[0].Message, tc.tag) {
				t.Errorf("keeper1 accepting the report of a sheep %s: %s %+v %+v, want one error naming %s",
					tc.name, review.RequestStatus, review.Errors, review.Warnings, tc.tag)
			}
		}
		b.wantOn("after keeper1 accepted the reports", map[string]string{there: common1})
		var found int
		if err := s.InTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
			got, err := tx.Animals(ctx, []string{absent})
			found = len(got)
			return err
		}); err != nil || found != 0 {
			t.Errorf("after accepting a report of a tag never issued: %d animals wear it (%v)", found, err)
		}
	})
}
