package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testSharedTxPanic checks that a panicking fn costs its caller an error
// and its own writes, and nothing else: the others commit, and the store
// goes on serving.
func testSharedTxPanic(t *testing.T, s store.Store) {
	errs := together(t, s,
		auditLine("p-0"),
		func(c context.Context, tx store.Tx) error {
			_ = auditLine("p-1")(c, tx)
			panic("boom")
		},
		auditLine("p-2"),
	)
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("InSharedTx beside a panic = %v, %v; want nil", errs[0], errs[2])
	}
	if errs[1] == nil {
		t.Errorf("InSharedTx of a panicking fn = nil; want an error")
	}
	wantAudit(t, s, "p-0", true)
	wantAudit(t, s, "p-1", false)
	wantAudit(t, s, "p-2", true)

	err := s.InSharedTx(ctx(t), func(c context.Context, tx store.Tx) error {
		_ = auditLine("p-lone")(c, tx)
		panic("boom")
	})
	if err == nil {
		t.Errorf("lone InSharedTx of a panicking fn = nil; want an error")
	}
	wantAudit(t, s, "p-lone", false)
	must(t, "InSharedTx after the panics", s.InSharedTx(ctx(t), auditLine("p-after")))
	wantAudit(t, s, "p-after", true)
}

// testSharedTxCancel checks that a caller whose ctx ends before its fn has
// started gets ctx's error and fn never runs, and that once fn has started
// its outcome is what the caller gets, whatever ctx does.
func testSharedTxCancel(t *testing.T, s store.Store) {
	var ran atomic.Bool
	never := func(c context.Context, tx store.Tx) error {
		ran.Store(true)
		return auditLine("never")(c, tx)
	}
	done, cancel := context.WithCancel(ctx(t))
	cancel()
	err := s.InSharedTx(done, never)
	wantKind(t, "InSharedTx with its ctx done", err, livestock.KindUnavailable)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("InSharedTx with its ctx done = %v; want it to wrap context.Canceled", err)
	}

	// Queued behind a held writer, then cancelled.
	release := hold(t, s)
	queued, cancel := context.WithCancel(ctx(t))
	result := make(chan error, 1)
	go func() { result <- s.InSharedTx(queued, never) }()
	cancel()
	err = <-result
	release()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("InSharedTx cancelled while queued = %v; want context.Canceled", err)
	}
	must(t, "InSharedTx after", s.InSharedTx(ctx(t), auditLine("after"))) // runs after any queued call
	if ran.Load() {
		t.Errorf("a fn whose ctx ended before it started ran")
	}
	wantAudit(t, s, "never", false)

	// Cancelled while its fn runs: fn goes on, and its commit is the answer.
	running, cancel := context.WithCancel(ctx(t))
	defer cancel()
	err = s.InSharedTx(running, func(c context.Context, tx store.Tx) error {
		cancel()
		return auditLine("started")(c, tx)
	})
	if err != nil {
		t.Errorf("InSharedTx cancelled while its fn ran = %v; want nil", err)
	}
	wantAudit(t, s, "started", true)
}

// testSharedTxClose checks that Close lets the calls it finds finish, and
// that InSharedTx fails once the store is closed rather than waiting.
func testSharedTxClose(t *testing.T, s store.Store) {
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			err := s.InSharedTx(ctx(t), auditLine(fmt.Sprintf("x-%d", i)))
			if err != nil && livestock.ErrorKind(err) != livestock.KindUnavailable {
				t.Errorf("InSharedTx while closing = %v; want nil or KindUnavailable", err)
			}
		})
	}
	must(t, "Close", s.Close())
	wg.Wait()
	err := s.InSharedTx(ctx(t), auditLine("closed"))
	wantKind(t, "InSharedTx after Close", err, livestock.KindUnavailable)
}
