package groupcommit_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// TestAnsweredOnceSynced: with Config.Sync, a call is answered only after
// a Sync that began after its group committed, and the committer does not
// wait for that Sync: a second call commits while the first's Sync is
// still under way, and is itself answered after a Sync of its own.
func TestAnsweredOnceSynced(t *testing.T) {
	t.Parallel()
	var b *bundle
	var syncs atomic.Int64
	began := make(chan int64, 8) // the commits made when each Sync began
	release := make(chan struct{})
	b = setup(t, groupcommit.Config[*groupcommit.Tx]{Sync: func() error {
		began <- b.g.Stats().Commits
		<-release
		syncs.Add(1)
		return nil
	}})
	first, second := make(chan error, 1), make(chan error, 1)
	go func() { first <- b.g.Run(t.Context(), put("first"), groupcommit.Options{}) }()
	if n := <-began; n != 1 {
		t.Errorf("the first Sync began with %d commits made; want 1, after the first call's", n)
	}
	go func() { second <- b.g.Run(t.Context(), put("second"), groupcommit.Options{}) }()
	for wait := time.Now(); b.g.Stats().Commits < 2; time.Sleep(time.Millisecond) {
		if time.Since(wait) > 30*time.Second {
			t.Fatal("the second call did not commit while the first's Sync was under way")
		}
	}
	select {
	case err := <-first:
		t.Fatalf("the first call was answered (%v) before its Sync returned", err)
	case err := <-second:
		t.Fatalf("the second call was answered (%v) before any Sync after its commit", err)
	default:
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("first: %v", err)
	}
	if n := <-began; n != 2 {
		t.Errorf("the second Sync began with %d commits made; want 2", n)
	}
	if err := <-second; err != nil {
		t.Errorf("second: %v", err)
	}
	if got := syncs.Load(); got != 2 {
		t.Errorf("%d syncs; want 2, one for each group", got)
	}
	if st := b.g.Stats(); st.Syncs != 2 || st.Sync.Sum <= 0 {
		t.Errorf("Stats: %d syncs taking %v; want 2, taking some time", st.Syncs, st.Sync.Sum)
	}
	for _, k := range []string{"first", "second"} {
		if got := b.rows(t, k); got != 1 {
			t.Errorf("%s: %d rows; want 1", k, got)
		}
	}
}

// TestSyncsShared: groups that commit while a Sync is under way are made
// durable by one Sync after it, not one each.
func TestSyncsShared(t *testing.T) {
	t.Parallel()
	var b *bundle
	began := make(chan struct{}, 8)
	release := make(chan struct{})
	b = setup(t, groupcommit.Config[*groupcommit.Tx]{Sync: func() error {
		began <- struct{}{}
		<-release
		return nil
	}})
	done := make(chan error, 4)
	go func() { done <- b.g.Run(t.Context(), put("shared-0"), groupcommit.Options{}) }()
	<-began
	for i := 1; i < 4; i++ { // three more groups, one after another, during the first Sync
		go func() { done <- b.g.Run(t.Context(), put("shared-"+string(rune('0'+i))), groupcommit.Options{}) }()
		for wait := time.Now(); b.g.Stats().Commits < int64(i+1); time.Sleep(time.Millisecond) {
			if time.Since(wait) > 30*time.Second {
				t.Fatalf("group %d did not commit during the first Sync", i)
			}
		}
	}
	close(release)
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	// The three groups were committed by the time the first Sync returned,
	// though the last may not yet have been handed on: 2 syncs, or 3.
	if st := b.g.Stats(); st.Commits != 4 || st.Syncs >= 4 {
		t.Errorf("%d commits made durable by %d syncs; want 4 by fewer", st.Commits, st.Syncs)
	}
}

// TestSyncFailureStops: a Sync that fails stops the process before any
// caller of the groups it was for is answered (sync.go says why). The
// test runs itself in a child process, which must die of it.
func TestSyncFailureStops(t *testing.T) {
	if os.Getenv("GROUPCOMMIT_SYNC_FAILS") == "1" {
		b := setup(t, groupcommit.Config[*groupcommit.Tx]{Sync: func() error { return errors.New("input/output error") }})
		err := b.g.Run(context.Background(), put("lost"), groupcommit.Options{})
		t.Fatalf("Run was answered (%v) after its Sync failed", err)
	}
	t.Parallel()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestSyncFailureStops$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GROUPCOMMIT_SYNC_FAILS=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || !strings.Contains(string(out), "could not be made durable: input/output error") ||
		strings.Contains(string(out), "was answered") {
		t.Errorf("the child ended with %v; want it stopped by the failed sync. Its output:\n%s", err, out)
	}
}
