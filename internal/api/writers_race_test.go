package api_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestWritersNeverDeadlock races the three writers — correction, undo and
// review, and then undo of each — on the same transfers at once. Their
// jobs take their locks in one order (requests newest first, then the
// movement, then the animals), so none waits for another in a cycle: no
// submission is a 5xx, every request ends in a definite status at its
// first attempt (a deadlock fails a job's attempt, which the runner logs
// and retries), and every animal is where its movement's final state puts
// it.
func TestWritersNeverDeadlock(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		b.replica(replicaWorkers)
		tokens := map[string]string{"keeper1": b.token("keeper1"), "keeper2": b.token("keeper2")}
		const n = 12
		transfers := make([]int64, n)
		for i := range n {
			rec := b.submit(tokens["keeper1"], "TransferRequests", transfer(day(-2), farm1, farm2, farm1, sheep("130181", i+1), nil))
			if !rec.applied() {
				t.Fatalf("transfer %d: %+v", i, rec)
			}
			transfers[i] = rec.RequestID
		}
		review := func(id int64) map[string]any {
			return map[string]any{"holding": farm2, "reviewMovement": map[string]any{"requestId": id, "isAccepted": true, "arrivalDate": day(-1)}}
		}
		correct := func(i int, id int64) map[string]any {
			return with(transfer(day(-2), farm1, farm2, farm1, sheep("130181", i+1), nil), "requestToBeUndone_ID", id)
		}
		undo := func(id int64) map[string]any { return map[string]any{"requestToBeUndone_ID": id} }

		// The first wave: on each transfer, its correction, its undo and
		// its review at once.
		var first []posted
		for i, id := range transfers {
			first = append(first,
				posted{user: "keeper1", collection: "CorrectTransferRequests", content: correct(i, id)},
				posted{user: "keeper1", collection: "UndoRequests", content: undo(id)},
				posted{user: "keeper2", collection: "ReviewHoldingMovementRequests", content: review(id)})
		}
		b.race(tokens, first)

		// The second wave, on what the first left: the review's undo, the
		// latest version's undo, its correction and its review, at once.
		var second []posted
		for i, id := range transfers {
			m, err := s.Movement(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			second = append(second,
				posted{user: "keeper1", collection: "UndoRequests", content: undo(m.RequestID)},
				posted{user: "keeper1", collection: "CorrectTransferRequests", content: correct(i, m.RequestID)},
				posted{user: "keeper2", collection: "ReviewHoldingMovementRequests", content: review(m.RequestID)})
			if m.ReviewID != 0 {
				second = append(second, posted{user: "keeper2", collection: "UndoRequests", content: undo(m.ReviewID)})
			}
		}
		b.race(tokens, second)

		b.noJobRetried()
		for i, id := range transfers {
			b.wantWhereMovementPutsIt(id, fmt.Sprintf("UK0130181 %05d", i+1))
		}
	})
}

// replicaWorkers is the job workers of the second replica in the race.
var replicaWorkers = 6

// replica runs a second job runner over the bundle's store, as another
// replica of the service would, until the test ends: with the bundle's
// own, jobs of the same movement run side by side on both stores'
// committers.
func (b *bundle) replica(workers int) {
	b.t.Helper()
	_, mv, _ := services(b.t, b.store)
	runner := jobs.New(b.store, jobs.Options{Workers: workers, Poll: 5 * time.Millisecond})
	mv.Register(runner)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = runner.Run(ctx); close(done) }()
	b.t.Cleanup(func() { stop(); <-done })
}

// posted is one submission of a race.
type posted struct {
	user, collection string
	content          map[string]any
	id               int64 // the request stored; 0 when refused at once
}

// race posts every submission at once, each from its own goroutine, then
// waits for each request to be decided. A refusal at submission (4xx) is a
// definite answer; a 5xx is not.
func (b *bundle) race(tokens map[string]string, subs []posted) {
	b.t.Helper()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range subs {
		p := &subs[i]
		wg.Go(func() {
			<-start
			res := b.post(tokens[p.user], p.collection, map[string]any{"content": p.content})
			switch {
			case res.status == http.StatusCreated:
				var rec record
				res.decode(&rec)
				p.id = rec.RequestID
			case res.status >= 500:
				b.t.Errorf("POST %s %v = %d %s", p.collection, p.content, res.status, res.body)
			}
		})
	}
	close(start)
	wg.Wait()
	for _, p := range subs {
		if p.id == 0 {
			continue
		}
		rec := b.await(tokens[p.user], p.collection, p.id)
		if rec.RequestStatus == "QueueFail" {
			b.t.Errorf("%s(%d) = %s %+v", p.collection, p.id, rec.RequestStatus, rec.Errors)
		}
	}
}

// noJobRetried checks that no job needed a second attempt: a deadlock, or
// any other failure of the store, would have cost one.
func (b *bundle) noJobRetried() {
	b.t.Helper()
	for id := int64(1); ; id++ {
		j, err := storetest.Inspect(b.store).Job(context.Background(), id)
		if livestock.IsNotFound(err) {
			return
		}
		if err != nil {
			b.t.Fatal(err)
		}
		if j.Attempts > 0 || j.State != store.JobDone {
			b.t.Errorf("job %d (%s): %s after %d failed attempts, last error %q", j.ID, j.Payload, j.State, j.Attempts, j.LastError)
		}
	}
}

// wantWhereMovementPutsIt checks that tag is where movement id's final
// state puts it: on the destination from the arrival date when accepted
// (or completed), else still on the source since before the move.
func (b *bundle) wantWhereMovementPutsIt(id int64, tag string) {
	b.t.Helper()
	ctx := context.Background()
	m, err := b.store.Movement(ctx, id)
	if err != nil {
		b.t.Fatal(err)
	}
	a, err := b.store.Animal(ctx, tag)
	if err != nil {
		b.t.Fatal(err)
	}
	want, since := m.Source, m.Devices[0].PriorOnSince
	if (m.State == store.MovementAccepted || m.State == store.MovementCompleted) && m.Devices[0].Outcome == "accepted" {
		want, since = m.Destination, m.ArrivalDate
	}
	if a.CPH != want || !a.OnSince.Equal(since) {
		b.t.Errorf("%s is on %s since %s; movement %d is %s, so want %s since %s", tag, a.CPH, a.OnSince.Format("2006-01-02"),
			id, m.State, want, since.Format("2006-01-02"))
	}
}
