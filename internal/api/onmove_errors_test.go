package api_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestFailedOnMoveRevealsNoTags: a keeper reporting animals moved on from
// a market they do not act for (applied at once, with no consent of the
// market's keeper), with tags that are not all there, learns that the
// move cannot be applied, not which of the tags are registered or where:
// one error about the source holding. The market's own keeper still gets
// an error for each tag. (From a producer's holding the report awaits its
// keeper and fails for no animal: TestOnMoveOutcomeRevealsNoTags.)
func TestFailedOnMoveRevealsNoTags(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		// 130191 00001 is in keeper1's sale yard; 130181 00030 was never
		// issued; keeper2's 130186 00001 is on farm2.
		devices := append(append(sheep("130191", 1), sheep("130181", 30)...), sheep("130186", 1)...)

		on := b.submit(k2, "TransferRequests", transfer(day(-1), yard1, farm2, farm2, devices, nil))
		if on.RequestStatus != "Fail" || len(on.Errors) != 1 || on.Errors[0].Target != "content.sourceHolding" {
			t.Errorf("keeper2's on-move from the yard: %s %+v, want Fail with one error at content.sourceHolding", on.RequestStatus, on.Errors)
		}
		for _, e := range on.Errors {
			if strings.Contains(e.Message+e.Target, "UK0") || strings.Contains(e.Target, "devices") {
				t.Errorf("keeper2's on-move error names an animal: %+v", e)
			}
		}

		off := b.submit(k1, "TransferRequests", transfer(day(-1), yard1, farm2, yard1, devices, nil))
		var targets []string
		for _, e := range off.Errors {
			targets = append(targets, e.Target)
		}
		if off.RequestStatus != "Fail" || !slices.Contains(targets, "content.movementGroups[0].devices[1].tagNumber") ||
			!slices.Contains(targets, "content.movementGroups[0].devices[2].tagNumber") {
			t.Errorf("keeper1's own off-move: %s %+v, want an error for each of the two tags", off.RequestStatus, off.Errors)
		}
	})
}

// TestOnMoveStandstillRevealsNoArrivals: an on-move reported by the
// destination's keeper says nothing of the source's standstill, which would
// tell them that (and, dated back a day at a time, when) animals arrived
// on another keeper's holding; the source's keeper is warned, with the
// date, when they accept it, as they are on their own off-move.
func TestOnMoveStandstillRevealsNoArrivals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		const yard = "01/100/0258" // keeper1's sale yard
		there := b.submit(k1, "TransferRequests", transfer(day(-5), farm1, yard, farm1, sheep("130181", 20), nil))
		back := b.submit(k1, "TransferRequests", transfer(day(-3), yard, farm1, farm1, sheep("130181", 20), nil))
		if !there.applied() || !back.applied() {
			t.Fatalf("keeper1's moves: %+v, %+v", there, back)
		}
		arrived := day(-3)
		warned := func(name string, rec record) {
			t.Helper()
			_, warns := rec.codes()
			if rec.RequestStatus != "CompletedWarning" || !slices.Contains(warns, "W001") {
				t.Errorf("%s: %s %+v, want W001", name, rec.RequestStatus, rec.Warnings)
			}
			for _, w := range rec.Warnings {
				if w.Code == "W001" && !strings.Contains(w.Message, arrived) {
					t.Errorf("%s: %q does not name the arrival date %s", name, w.Message, arrived)
				}
			}
		}
		on := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 21), nil))
		if on.RequestStatus != "Success" || len(on.Warnings) != 0 {
			t.Errorf("keeper2's on-move from a holding under standstill: %s %+v, want Success with no warning", on.RequestStatus, on.Warnings)
		}
		warned("keeper1's off-move", b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 22), nil)))
		warned("keeper1 accepting keeper2's on-move", b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 1)))
	})
}
