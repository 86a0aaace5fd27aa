package api_test

import (
	"net/http"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestCattleMovements: the live definition moves cattle too. A cow moves
// by her ear tag and waits for the destination's review like a sheep; a
// movement of cattle with a batch, a movement document or an rfid is a 400
// (V069, live 31000); a calf registered after the statutory limit, which
// has no passport, may not leave (V070, live 22039).
func TestCattleMovements(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		cow := func(n int) []map[string]any {
			return []map[string]any{{"tagNumber": sandbox.Keepers[0].CalfTag(n).String()}}
		}
		move := func(devices []map[string]any) map[string]any {
			m := transfer(day(-1), farm1, farm2, farm1, devices, nil)
			m["species"] = "Cattle"
			return m
		}

		sent := b.submit(k1, "TransferRequests", move(cow(3)))
		if !sent.applied() {
			t.Fatalf("a cow's move: %s %+v", sent.RequestStatus, sent.Errors)
		}
		item, ok := listed(b.awaitingSpecies(k2, "Cattle", farm2), sent.RequestID)
		if !ok || len(item.ReviewDevices) != 1 {
			t.Fatalf("keeper2's cattle look-up: %+v (found %v)", item, ok)
		}
		if rec := b.submit(k2, "ReviewHoldingMovementRequests", decide(farm2, sent.RequestID, true, 1)); !rec.applied() {
			t.Fatalf("keeper2 accepting the cow: %s %+v", rec.RequestStatus, rec.Errors)
		}
		b.wantOn("the cow accepted", map[string]string{sandbox.Keepers[0].CalfTag(3).String(): farm2})

		// A review names cows in its lists by their ear tags: two sent, one
		// accepted and one rejected by name.
		pair := b.submit(k1, "TransferRequests", move(append(cow(4), cow(5)...)))
		split := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": pair.RequestID, "isAccepted": true, "arrivalDate": day(0), "animalTotal": 1,
				"acceptedDevices": cow(4), "rejectedDevices": cow(5)}})
		if !pair.applied() || !split.applied() {
			t.Fatalf("two cows sent %s %+v, one accepted by name: %s %+v", pair.RequestStatus, pair.Errors, split.RequestStatus, split.Errors)
		}
		b.wantOn("one cow accepted, one rejected, by name", map[string]string{
			sandbox.Keepers[0].CalfTag(4).String(): farm2, sandbox.Keepers[0].CalfTag(5).String(): farm1})

		// Each with the live catalogue's own code for the rule.
		for name, tc := range map[string]struct {
			body         map[string]any
			code, target string
		}{
			"a batch": {func() map[string]any {
				m := move(nil)
				m["animalCount"] = 1
				m["movementGroups"] = []map[string]any{{"batches": []map[string]any{{"batchNumber": "UK442501", "animalTotal": 1}}}}
				return m
			}(), "30009", "content.movementGroups[0].batches[0]"},
			"a movement document": {func() map[string]any {
				m := move(cow(2))
				m["movementDocument"] = map[string]any{"documentType": "ARAMS1", "movementDocumentRef": "X1"}
				return m
			}(), "21164", "content.movementDocument"},
			"an rfid": {move([]map[string]any{{"tagNumber": sandbox.Keepers[0].CalfTag(2).String(), "rfid": "0826013018100001"}}),
				"3028", "content.movementGroups[0].devices[0].rfid"},
		} {
			res := b.post(k1, "TransferRequests", map[string]any{"content": tc.body})
			if status, code, target := liveRefusal(res); status != http.StatusBadRequest || code != tc.code || target != tc.target {
				t.Errorf("cattle with %s: %d %s, want 400 %s at %s", name, res.status, res.body, tc.code, tc.target)
			}
		}

		late := "UK442501" + checkDigit(t, "442501", 106) + "00106"
		if res := b.register(k1, calf(late, "UK442501300001", day(-40))); res.status != http.StatusOK {
			t.Fatalf("late registration: %d %s", res.status, res.body)
		}
		rec := b.submit(k1, "TransferRequests", move([]map[string]any{{"tagNumber": late}}))
		if rec.RequestStatus != "Fail" || len(rec.Errors) != 1 || rec.Errors[0].Code != "22039" {
			t.Errorf("moving a calf with no passport: %s %+v, want Fail 22039", rec.RequestStatus, rec.Errors)
		}
	})
}
