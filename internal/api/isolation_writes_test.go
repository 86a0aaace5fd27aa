package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestKeeperIsolationOfWrites: what keeper2 sends never answers with
// keeper1's business — not a replay of keeper1's correlation id, and not
// the outcome of a review, undo or correction that names keeper1's
// private request.
func TestKeeperIsolationOfWrites(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sec := newSecrets(b, k1)
		private := sec.ids[0]

		// Correlation ids are each user's own: keeper2 reusing keeper1's
		// gets no replay of keeper1's answer, with keeper1's body or its own.
		mine := map[string]any{"content": transfer(day(-1), farm1, "01/100/0259", farm1, sheep("130182", 10), nil)}
		first := b.post(k1, "TransferRequests", mine, "X-Correlation-ID", "shared-id")
		var sent record
		first.decode(&sent)
		sec.ids = append(sec.ids, sent.RequestID)
		if res := b.post(k2, "TransferRequests", mine, "X-Correlation-ID", "shared-id"); res.status != http.StatusForbidden || sec.leaks(res, "") != "" {
			t.Errorf("keeper2 replaying keeper1's POST: %d %s", res.status, res.body)
		}
		own := map[string]any{"content": transfer(day(-1), farm2, "01/100/0265", farm2, sheep("130186", 10), nil)}
		if res := b.post(k2, "TransferRequests", own, "X-Correlation-ID", "shared-id"); res.status != http.StatusCreated || sec.leaks(res, "") != "" {
			t.Errorf("keeper2's own POST with keeper1's correlation id: %d %s", res.status, res.body)
		}
		body := calf("UK442501"+checkDigit(t, "442501", 121)+"00121", "UK442501300001", day(-3))
		if res := b.register(k1, body, "x-Request-Mode", "async", "X-Correlation-ID", "reg-shared"); res.status != http.StatusAccepted {
			t.Fatalf("keeper1 registration: %d %s", res.status, res.body)
		} else {
			sec.markers = append(sec.markers, res.header.Get("X-Request-ID"))
		}
		// Not keeper2's holding: a 400 naming the site (V047), as the live
		// definition has no 403 for a registration.
		if res := b.register(k2, body, "x-Request-Mode", "async", "X-Correlation-ID", "reg-shared"); res.status != http.StatusBadRequest ||
			res.problem().Errors[0].Code != "V047" || sec.leaks(res, "") != "" {
			t.Errorf("keeper2 replaying keeper1's registration: %d %s", res.status, res.body)
		}

		// Naming keeper1's private request: refused at once, or decided
		// without a word about it.
		for _, tc := range []struct {
			collection string
			content    map[string]any
		}{
			{"UndoRequests", map[string]any{"requestToBeUndone_ID": private}},
			{"CorrectTransferRequests", func() map[string]any {
				c := transfer(day(-1), farm2, "01/100/0265", farm2, sheep("130186", 11), nil)
				c["requestToBeCorrected_ID"] = private
				return c
			}()},
			{"ReviewHoldingMovementRequests", map[string]any{"holding": farm2, "reviewMovement": map[string]any{
				"requestId": private, "isAccepted": true, "arrivalDate": day(0), "animalTotal": 1}}},
		} {
			res := b.post(k2, tc.collection, map[string]any{"content": tc.content})
			if m := sec.leaks(res, ""); m != "" {
				t.Errorf("keeper2 POST %s naming %d shows keeper1's %s: %s", tc.collection, private, m, res.body)
			}
			switch res.status {
			case http.StatusBadRequest: // an id not in use (V024), word for word (TestNotYoursWritesAreNotThere)
				if errs := res.problem().Errors; len(errs) != 1 || errs[0].Code != "V024" {
					t.Errorf("keeper2 POST %s naming keeper1's request: %s, want V024 alone", tc.collection, res.body)
				}
			case http.StatusForbidden:
			case http.StatusCreated:
				var rec record
				res.decode(&rec)
				done := b.await(k2, tc.collection, rec.RequestID)
				got := b.do(http.MethodGet, fmt.Sprintf("/v1/%s(%d)", tc.collection, rec.RequestID), k2, nil)
				if m := sec.leaks(got, ""); done.RequestStatus != "Fail" || m != "" {
					t.Errorf("keeper2's %s naming keeper1's request: %s, shows %q: %s", tc.collection, done.RequestStatus, m, got.body)
				}
			default:
				t.Errorf("keeper2 POST %s naming keeper1's request: %d %s", tc.collection, res.status, res.body)
			}
		}
	})
}
