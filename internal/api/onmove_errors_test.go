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
// another keeper's holding, with tags that are not all there, learns that
// the move cannot be applied, not which of the tags are registered or
// where: one error about the source holding. The source's own keeper
// still gets an error for each tag.
func TestFailedOnMoveRevealsNoTags(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		// 00001 is keeper1's, on farm1; 00030 was never issued; keeper2's
		// 130186 00001 is on farm2.
		devices := append(sheep("130181", 1, 30), sheep("130186", 1)...)

		on := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, devices, nil))
		if on.RequestStatus != "Fail" || len(on.Errors) != 1 || on.Errors[0].Target != "content.sourceHolding" {
			t.Errorf("keeper2's on-move from farm1: %s %+v, want Fail with one error at content.sourceHolding", on.RequestStatus, on.Errors)
		}
		for _, e := range on.Errors {
			if strings.Contains(e.Message+e.Target, "UK0") || strings.Contains(e.Target, "devices") {
				t.Errorf("keeper2's on-move error names an animal: %+v", e)
			}
		}

		off := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, devices, nil))
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
