package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// txFunc is what InTx and InSharedTx run.
type txFunc = func(context.Context, store.Tx) error

// hold takes every committer of shared transactions the store has (one
// unless it says otherwise) with a transaction that waits, so that the
// calls made meanwhile queue up. release lets the first committer go on,
// which takes every call queued by then into one group, then the others.
func hold(t *testing.T, s store.Store) (release func()) {
	t.Helper()
	n := 1
	if c, ok := s.(interface{ Committers() int }); ok {
		n = c.Committers()
	}
	frees, dones := make([]chan struct{}, n), make([]chan error, n)
	for i := range n { // one at a time, so that each takes a committer of its own
		held := make(chan struct{})
		frees[i], dones[i] = make(chan struct{}), make(chan error, 1)
		go func() {
			dones[i] <- s.InSharedTx(ctx(t), func(context.Context, store.Tx) error {
				close(held)
				<-frees[i]
				return nil
			})
		}()
		select {
		case <-held:
		case err := <-dones[i]:
			t.Fatalf("InSharedTx holding committer %d: %v", i, err)
		}
	}
	return func() {
		for i := range n {
			close(frees[i])
			must(t, "InSharedTx holding a committer", <-dones[i])
		}
	}
}

// together runs each of fns through InSharedTx from a goroutine of its own
// while every committer is held, then lets them run, and returns what each
// call returned. The calls are meant to share transactions; a test may not
// rely on it, as it cannot see when every goroutine has handed its call over.
func together(t *testing.T, s store.Store, fns ...txFunc) []error {
	t.Helper()
	release := hold(t, s)
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Go(func() { errs[i] = s.InSharedTx(ctx(t), fn) })
	}
	time.Sleep(20 * time.Millisecond) // let the calls queue: a hint, not a requirement
	release()
	wg.Wait()
	return errs
}

// auditLine is a fn that writes one audit line about subject.
func auditLine(subject string) txFunc {
	return func(c context.Context, tx store.Tx) error {
		return tx.Audit(c, store.AuditEntry{UserName: "u", Action: "shared", Subject: subject})
	}
}

// wantAudit checks that subject has one audit line when present, else none.
func wantAudit(t *testing.T, s store.Store, subject string, present bool) {
	t.Helper()
	want := 0
	if present {
		want = 1
	}
	if n := len(Audit(t, s, subject)); n != want {
		t.Errorf("audit lines of %s = %d; want present %v", subject, n, present)
	}
}

// testSharedTxMany stores one request from each of 200 concurrent callers,
// as Submit does: each is there exactly once, with its job.
func testSharedTxMany(t *testing.T, s store.Store) {
	const n = 200
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r := transfer("keeper1")
			r.TrackingID = fmt.Sprintf("G-%d", i)
			err := s.InSharedTx(ctx(t), func(c context.Context, tx store.Tx) (err error) {
				if ids[i], err = tx.InsertRequest(c, r); err != nil {
					return err
				}
				_, err = tx.EnqueueJob(c, store.NewJob{Kind: "shared", Payload: []byte(`{}`)})
				return err
			})
			if err != nil {
				t.Errorf("InSharedTx %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	list, err := s.Requests(ctx(t), store.RequestQuery{Type: store.RequestTransfer, All: true})
	must(t, "Requests", err)
	byID := map[int64]string{}
	for _, r := range list {
		byID[r.ID] = r.TrackingID
	}
	if len(list) != n || len(byID) != n {
		t.Fatalf("%d requests stored (%d ids); want %d", len(list), len(byID), n)
	}
	for i, id := range ids {
		if want := fmt.Sprintf("G-%d", i); byID[id] != want {
			t.Errorf("request %d has trackingId %q; want %q", id, byID[id], want)
		}
	}
	counts, err := Inspect(s).JobCounts(ctx(t))
	must(t, "JobCounts", err)
	if counts[store.JobAvailable] != n {
		t.Errorf("jobs = %v; want %d available", counts, n)
	}
}
