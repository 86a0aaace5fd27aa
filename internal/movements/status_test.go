package movements

import (
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// TestOutcomeStatus: a job's outcome ends its request in the live status
// docs/request-status.md gives it.
func TestOutcomeStatus(t *testing.T) {
	t.Parallel()
	e := []livestock.FieldError{{Code: livestock.CodeDeviceUnknown}}
	w := []livestock.FieldError{{Code: livestock.CodeStandstill}}
	for _, tc := range []struct {
		out  outcome
		want store.RequestStatus
	}{
		{outcome{}, store.StatusSuccess},
		{outcome{warns: w}, store.StatusCompletedWarning},
		{outcome{errs: e}, store.StatusFail},
		{outcome{errs: e, warns: w}, store.StatusFail},
		{outcome{errs: e, queueFail: true}, store.StatusQueueFail},
	} {
		if got := tc.out.status(); got != tc.want {
			t.Errorf("%+v.status() = %s, want %s", tc.out, got, tc.want)
		}
		if tc.out.status().Applied() != (tc.want == store.StatusSuccess || tc.want == store.StatusCompletedWarning) {
			t.Errorf("%s.Applied() wrong", tc.want)
		}
	}
}
