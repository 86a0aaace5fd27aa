package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestReviewNamesTheVersionItSaw: once the sender corrects a transfer, a
// review naming the transfer's requestId names a version the look-up no
// longer shows; it is refused with the live 21373, at submission and, for
// a review submitted before the correction, when its job applies it. The
// look-up shows the correction's requestId, and a review naming it applies.
func TestReviewNamesTheVersionItSaw(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1), nil))
		review := func(id int64) map[string]any {
			return map[string]any{"holding": farm2, "reviewMovement": map[string]any{"requestId": id, "isAccepted": true, "arrivalDate": day(0)}}
		}
		fix := transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1, 2), nil)
		fix["requestToBeCorrected_ID"] = sent.RequestID
		corrected := b.submit(k1, "CorrectTransferRequests", fix)
		if !corrected.applied() {
			t.Fatalf("correction = %+v", corrected)
		}
		// A review that passed its checks at submission while sent was the
		// latest version, applied after the correction.
		stored := review(sent.RequestID)
		stored["reviewMovement"].(map[string]any)["arrivalDate"] = day(0) + "T00:00:00Z" // as Submit stores it
		early := b.insertReview("keeper2", sent.RequestID, stored)

		const lookup = "/v1/HoldingMovementForReviews/ReviewBySpecies(species=Sheep,holding=01%2F100%2F0264)"
		var page struct{ Value []liveReviewItem }
		if res := b.do(http.MethodGet, lookup, k2, nil); res.status != http.StatusOK {
			t.Fatalf("GET %s = %d %s", lookup, res.status, res.body)
		} else {
			res.decode(&page)
		}
		if len(page.Value) != 1 || page.Value[0].RequestID != corrected.RequestID || len(page.Value[0].ReviewDevices) != 2 {
			t.Fatalf("look-up after the correction = %+v, want the correction %d with two sheep", page.Value, corrected.RequestID)
		}

		res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": review(sent.RequestID)})
		if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), `"21373"`) {
			t.Errorf("review of the corrected version = %d %s, want 400 with 21373", res.status, res.body)
		}
		late := b.await(k2, "ReviewHoldingMovementRequests", early)
		if errs, _ := late.codes(); late.RequestStatus != "Fail" || len(errs) != 1 || errs[0] != "21373" {
			t.Errorf("review queued before the correction = %s %v, want Fail 21373", late.RequestStatus, late.Errors)
		}

		ok := b.submit(k2, "ReviewHoldingMovementRequests", review(corrected.RequestID))
		if !ok.applied() {
			t.Fatalf("review of the latest version = %+v", ok)
		}
		for _, tag := range []string{"UK0130181 00001", "UK0130181 00002"} {
			a, err := s.Animal(context.Background(), tag)
			if err != nil || a.CPH.String() != farm2 {
				t.Errorf("%s after the review: %+v %v, want on %s", tag, a, err, farm2)
			}
		}
	})
}

// insertReview stores a review by user and queues its job as Submit
// would, without Submit's checks: a review that passed them before the
// movement changed, and is applied after.
func (b *bundle) insertReview(user string, target int64, content map[string]any) int64 {
	b.t.Helper()
	body, err := json.Marshal(content)
	if err != nil {
		b.t.Fatal(err)
	}
	now := time.Now().UTC()
	var id int64
	err = b.store.InSharedTx(context.Background(), func(ctx context.Context, tx store.Tx) error {
		if id, err = tx.InsertRequest(ctx, store.Request{Type: store.RequestReview, Status: store.StatusPending, UserName: user,
			RequestDate: now, UpdatedDate: now, TargetID: target, MovementDate: now, Content: body,
			Holdings: []livestock.CPH{livestock.MustCPH(farm2)}}); err != nil {
			return err
		}
		payload, _ := json.Marshal(map[string]int64{"requestId": id})
		_, err := tx.EnqueueJob(ctx, store.NewJob{Kind: movements.JobKind, Payload: payload})
		return err
	})
	if err != nil {
		b.t.Fatal(err)
	}
	return id
}
