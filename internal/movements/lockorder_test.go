package movements_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestWritersLockInOneOrder drives, step by step, the interleavings that
// deadlocked PostgreSQL: a correction's job holds the transfer it
// corrects while a review of the same transfer runs in another
// transaction, alone, or after an unrelated transfer's job that shares
// its transaction (a group commit). Taking locks in one order
// (lockorder.go) one job waits for the other's transaction to end
// instead: both transactions commit, on both stores, and the review,
// applied after the correction, is refused as naming a version since
// corrected.
func TestWritersLockInOneOrder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		svc, _, keeper1 := sandboxService(t, s, nil)
		keeper2, err := s.UserByName(ctx, "keeper2")
		if err != nil {
			t.Fatal(err)
		}
		today := time.Now().Format(time.DateOnly)
		submit := func(u livestock.User, typ store.RequestType, content string) int64 {
			t.Helper()
			var id int64
			_, err := svc.Submit(ctx, typ, movements.Posted{User: u, Body: []byte(`{"content":` + content + `}`),
				Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		job := func(id int64) store.Job {
			payload, _ := json.Marshal(map[string]int64{"requestId": id})
			return store.Job{Kind: movements.JobKind, Payload: payload, MaxAttempts: 25}
		}
		move := func(to, tag string) string {
			return fmt.Sprintf(`{"transferDate": %q, "species": "Sheep", "userHolding": "01/100/0257", "sourceHolding": "01/100/0257",
				"destinationHolding": %q, "animalCount": 1, "movementGroups": [{"devices": [{"tagNumber": %q}]}]`, today, to, tag)
		}
		for _, grouped := range []bool{false, true} {
			// Sheep 1 and 2 of flock 130181 for the first round, 3 and 4
			// for the second.
			n := 1
			if grouped {
				n = 3
			}
			sent := submit(keeper1, store.RequestTransfer, move("01/100/0264", fmt.Sprintf("UK0130181 %05d", n))+"}")
			if err := s.InTx(ctx, func(ctx context.Context, tx store.Tx) error { return svc.Apply(ctx, tx, job(sent)) }); err != nil {
				t.Fatal(err)
			}
			correction := submit(keeper1, store.RequestCorrection, move("01/100/0264", fmt.Sprintf("UK0130181 %05d", n+1))+
				fmt.Sprintf(`, "requestToBeCorrected_ID": %d}`, sent))
			review := submit(keeper2, store.RequestReview, fmt.Sprintf(`{"holding": "01/100/0264", "reviewMovement": {"requestId": %d,
				"isAccepted": true, "arrivalDate": %q}}`, sent, today))
			want := map[int64]store.RequestStatus{correction: store.StatusSuccess, review: store.StatusFail}
			var other int64
			if grouped {
				other = submit(keeper1, store.RequestTransfer, move("01/100/0258", "UK0130182 00001")+"}")
				want[other] = store.StatusSuccess
			}
			race(t, s, svc, job, sent, correction, review, other)
			for id, want := range want {
				if r, err := s.Request(ctx, id); err != nil || r.Status != want {
					t.Errorf("grouped %v: request %d (%s) = %s %+v, %v; want %s", grouped, id, r.Type, r.Status, r.Errors, err, want)
				}
			}
		}
	})
}

// race applies the correction's job in one transaction and the review's
// in another, after other's (when not 0) in the same. The correction's
// job takes the transfer sent, then waits for the review's to take the
// movement; the review's, having taken it, waits for the correction's to
// ask for it. A wait ends after half a second when the step waited for
// does not come: the lock order makes it wait for the other transaction
// to end. Neither transaction may fail.
func race(t *testing.T, s store.Store, svc *movements.Service, job func(int64) store.Job, sent, correction, review, other int64) {
	t.Helper()
	ctx := context.Background()
	holds, reviewerHolds, wantsMovement := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var held, wanted, reviewerHeld sync.Once
	wait := func(c chan struct{}) {
		select {
		case <-c:
		case <-time.After(500 * time.Millisecond):
		}
	}
	corrector := &steppedTx{afterLockRequest: func(id int64) {
		if id == sent {
			held.Do(func() { close(holds) })
			wait(reviewerHolds)
		}
	}, beforeLockMovement: func() { wanted.Do(func() { close(wantsMovement) }) }}
	reviewer := &steppedTx{afterLockMovement: func() {
		reviewerHeld.Do(func() { close(reviewerHolds) })
		wait(wantsMovement)
	}}

	errs := make(chan error, 2)
	go func() {
		errs <- s.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
			corrector.Tx = tx
			return svc.Apply(ctx, corrector, job(correction))
		})
	}()
	wait(holds)
	go func() {
		errs <- s.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
			if other != 0 {
				if err := svc.Apply(ctx, tx, job(other)); err != nil {
					return err
				}
			}
			reviewer.Tx = tx
			return svc.Apply(ctx, reviewer, job(review))
		})
	}()
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("a transaction failed: %v", err)
		}
	}
}

// steppedTx is a transaction that calls its hooks around the locks a job
// takes, so that a test can order two jobs' steps.
type steppedTx struct {
	store.Tx
	afterLockRequest   func(id int64)
	beforeLockMovement func()
	afterLockMovement  func()
}

func (t *steppedTx) LockRequest(ctx context.Context, id int64) (store.Request, error) {
	r, err := t.Tx.LockRequest(ctx, id)
	if t.afterLockRequest != nil {
		t.afterLockRequest(id)
	}
	return r, err
}

func (t *steppedTx) LockMovement(ctx context.Context, id int64) (store.Movement, error) {
	if t.beforeLockMovement != nil {
		t.beforeLockMovement()
	}
	m, err := t.Tx.LockMovement(ctx, id)
	if t.afterLockMovement != nil {
		t.afterLockMovement()
	}
	return m, err
}
