package movements_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestJobTakesItsCheckedTransfer: a job applying a transfer submitted in
// the same process takes the transfer decoded at its submission, and
// decides as a job elsewhere does, which decodes the stored content. The
// same refused transfer is sent twice; one job runs where it was sent,
// the other on a second service over the same store, as on another
// replica. A submission refused in its own transaction keeps nothing.
func TestJobTakesItsCheckedTransfer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		here, r, keeper1 := sandboxService(t, s, nil)
		lists, err := standing.Load("")
		if err != nil {
			t.Fatal(err)
		}
		elsewhere, err := movements.New(s, lists, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		other := jobs.New(s, jobs.Options{})
		elsewhere.Register(other)

		// Sheep 99 is on no holding of keeper1's: the job refuses it.
		body := fmt.Sprintf(`{"content": {"transferDate": %q, "species": "Sheep", "userHolding": "01/100/0257",
			"sourceHolding": "01/100/0257", "destinationHolding": "01/100/0258", "animalCount": 1,
			"movementGroups": [{"devices": [{"tagNumber": "UK0130181 00099"}]}]}}`, time.Now().Format(time.DateOnly))
		// A submission refused in its transaction (its trackingId used
		// before) keeps nothing for a job.
		for i := range 2 {
			tracked := strings.Replace(body, `"animalCount": 1,`, fmt.Sprintf(`"animalCount": 1, "trackingId": "once", "transportHaulierName": "h%d",`, i), 1)
			_, err := here.Submit(ctx, store.RequestTransfer, movements.Posted{User: keeper1, Body: []byte(tracked),
				Render: func(req store.Request) (int, []byte, error) { return 201, nil, nil }})
			if (err != nil) != (i == 1) {
				t.Fatalf("submission %d with trackingId once: %v", i, err)
			}
		}
		if n := here.Checked(); n != 1 {
			t.Fatalf("%d transfers kept, want 1: a refused submission kept its own", n)
		}
		var ids []int64
		for range 2 {
			_, err := here.Submit(ctx, store.RequestTransfer, movements.Posted{User: keeper1, Body: []byte(body),
				Render: func(req store.Request) (int, []byte, error) { ids = append(ids, req.ID); return 201, nil, nil }})
			if err != nil {
				t.Fatal(err)
			}
		}
		if n := here.Checked(); n != 2 {
			t.Fatalf("%d transfers kept after two submissions of one content, want 2 with the first tracked one", n)
		}
		kinds := []string{movements.JobKind}
		for range 2 {
			if ran, err := r.RunOne(ctx, kinds); !ran || err != nil {
				t.Fatalf("RunOne here = %v, %v", ran, err)
			}
		}
		if n := here.Checked(); n != 0 {
			t.Errorf("%d transfers kept after the jobs here ran, want 0: they did not take their own", n)
		}
		if ran, err := other.RunOne(ctx, kinds); !ran || err != nil {
			t.Fatalf("RunOne elsewhere = %v, %v", ran, err)
		}
		var got [2]store.Request
		for i, id := range ids {
			if got[i], err = s.Request(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		if got[0].Status != store.StatusFail || got[1].Status != got[0].Status ||
			fmt.Sprint(got[0].Errors) != fmt.Sprint(got[1].Errors) || fmt.Sprint(got[0].Warnings) != fmt.Sprint(got[1].Warnings) {
			t.Errorf("decided differently: here %s %v %v, elsewhere %s %v %v",
				got[0].Status, got[0].Errors, got[0].Warnings, got[1].Status, got[1].Errors, got[1].Warnings)
		}
	})
}
