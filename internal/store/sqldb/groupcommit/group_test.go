package groupcommit_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// TestGroupsForm queues 64 calls while the committer is held: they share
// one commit rather than making 64, and each one's row is kept.
func TestGroupsForm(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	const n = 64
	fns := make([]func(context.Context, *groupcommit.Tx) error, n)
	for i := range fns {
		fns[i] = put(fmt.Sprintf("form-%d", i))
	}
	before := b.g.Stats()
	for i, err := range b.runAll(t, nil, fns...) {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	after := b.g.Stats()
	// The holder's commit, then one for the 64.
	if commits, calls := after.Commits-before.Commits, after.Calls-before.Calls; commits != 2 || calls != n+1 {
		t.Errorf("%d calls made %d commits keeping %d calls; want 2 keeping %d", n, commits, calls, n+1)
	}
	for i := range n {
		if got := b.rows(t, fmt.Sprintf("form-%d", i)); got != 1 {
			t.Errorf("form-%d: %d rows, want 1", i, got)
		}
	}
}

// TestRunsAgainWithSavepoints: a group first runs without savepoints;
// when one of its fns fails, nothing of that run is kept, and the group
// runs again with a savepoint around each fn, so that the others' writes
// are committed once and the failing fn's not at all. The next group has
// savepoints from the start: each of its fns runs once, even when one
// fails.
func TestRunsAgainWithSavepoints(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	boom := errors.New("fn failed")
	for round, wantFailing := range []int{2, 1} {
		const n = 6
		var mu sync.Mutex
		calls := make([]int, n)
		fns := make([]func(context.Context, *groupcommit.Tx) error, n)
		for i := range fns {
			fns[i] = func(ctx context.Context, tx *groupcommit.Tx) error {
				mu.Lock()
				calls[i]++
				mu.Unlock()
				if err := put(fmt.Sprintf("run%d:%d", round, i))(ctx, tx); err != nil {
					return err
				}
				if i == 2 {
					return boom // after writing: the write must not stay
				}
				return nil
			}
		}
		errs := b.runAll(t, nil, fns...)
		for i := range n {
			want, rows := error(nil), 1
			if i == 2 {
				want, rows = boom, 0
			}
			if !errors.Is(errs[i], want) {
				t.Errorf("round %d, call %d: %v; want %v", round, i, errs[i], want)
			}
			if got := b.rows(t, fmt.Sprintf("run%d:%d", round, i)); got != rows {
				t.Errorf("round %d, call %d: %d rows, want %d", round, i, got, rows)
			}
			if calls[i] < 1 || calls[i] > wantFailing {
				t.Errorf("round %d, call %d: fn called %d times; want 1 to %d", round, i, calls[i], wantFailing)
			}
		}
		if calls[2] != wantFailing {
			t.Errorf("round %d: the failing fn was called %d times; want %d", round, calls[2], wantFailing)
		}
	}
	if r := b.g.Stats().Retried; r != 1 {
		t.Errorf("%d groups ran again; want 1", r)
	}
}

// TestPanic: a fn's panic is its caller's error, and the other fns of its
// group are committed.
func TestPanic(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	errs := b.runAll(t, nil, put("panic-0"), func(context.Context, *groupcommit.Tx) error { panic("oops") }, put("panic-2"))
	if errs[1] == nil || !strings.Contains(errs[1].Error(), "fn panicked: oops") {
		t.Errorf("the panicking call returned %v; want its panic", errs[1])
	}
	for _, i := range []int{0, 2} {
		if errs[i] != nil || b.rows(t, fmt.Sprintf("panic-%d", i)) != 1 {
			t.Errorf("call %d: %v, and its row not kept", i, errs[i])
		}
	}
}

// TestAbandoned: a call whose context ends while it is queued is given
// up, with the context's error through Config.Error, and its fn never
// runs.
func TestAbandoned(t *testing.T) {
	t.Parallel()
	var ops []string
	var mu sync.Mutex
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{Error: func(op string, err error) error {
		mu.Lock()
		ops = append(ops, op)
		mu.Unlock()
		return fmt.Errorf("op %q: %w", op, err)
	}})
	release := b.hold(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	ran := false
	go func() {
		done <- b.g.Run(ctx, func(context.Context, *groupcommit.Tx) error { ran = true; return nil }, groupcommit.Options{})
	}()
	b.waitQueued(1)
	cancel()
	err := <-done
	release()
	if !errors.Is(err, context.Canceled) || ran {
		t.Errorf("Run = %v, fn ran: %v; want context.Canceled, fn not run", err, ran)
	}
	if diff := cmp.Diff([]string{""}, ops); diff != "" {
		t.Errorf("ops given to Config.Error (-want +got):\n%s", diff)
	}
}

// TestStop: Stop lets the committer finish the calls queued, then Run
// refuses with ErrClosed.
func TestStop(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	release := b.hold(t)
	done := make(chan error, 1)
	go func() { done <- b.g.Run(t.Context(), put("stop"), groupcommit.Options{}) }()
	b.waitQueued(1)
	stopped := make(chan struct{})
	go func() { b.g.Stop(); close(stopped) }()
	release()
	<-stopped
	if err := <-done; err != nil || b.rows(t, "stop") != 1 {
		t.Errorf("the call queued before Stop: %v; want it committed", err)
	}
	if err := b.g.Run(t.Context(), put("late"), groupcommit.Options{}); err != groupcommit.ErrClosed {
		t.Errorf("Run after Stop = %v; want ErrClosed", err)
	}
}

// TestBackgroundYields queues more background calls than a group with
// foreground calls in it takes, then foreground calls: the first group
// runs every foreground call, then as many background ones; the others
// make a group of their own after it.
func TestBackgroundYields(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	const bg, fg = 3 * groupcommit.MaxBackground, 8
	release := b.hold(t)
	before := b.g.Stats().Commits
	var order []string // fns run one at a time on the one committer
	record := func(what string) func(context.Context, *groupcommit.Tx) error {
		return func(context.Context, *groupcommit.Tx) error { order = append(order, what); return nil }
	}
	var wg sync.WaitGroup
	run := func(what string, o groupcommit.Options) {
		wg.Go(func() {
			if err := b.g.Run(t.Context(), record(what), o); err != nil {
				t.Errorf("Run %s: %v", what, err)
			}
		})
	}
	for range bg {
		run("background", groupcommit.Options{Background: true})
	}
	b.waitQueued(bg)
	for range fg { // queued after the background calls: they still go first
		run("foreground", groupcommit.Options{})
	}
	b.waitQueued(bg + fg)
	release()
	wg.Wait()
	var want []string
	for range fg {
		want = append(want, "foreground")
	}
	for range bg {
		want = append(want, "background")
	}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("order of the fns (-want +got):\n%s", diff)
	}
	// The holder's, the foreground group with fg background calls, then
	// one group of the rest.
	if commits := b.g.Stats().Commits - before; commits != 3 {
		t.Errorf("%d commits; want 3", commits)
	}
}

// TestTagged: the fns of a pass see how many calls it runs and how many
// of them were tagged.
func TestTagged(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	var mu sync.Mutex
	var seen [][2]int
	fn := func(_ context.Context, tx *groupcommit.Tx) error {
		mu.Lock()
		seen = append(seen, [2]int{tx.Calls(), tx.Tagged()})
		mu.Unlock()
		return nil
	}
	o := []groupcommit.Options{{Tagged: true}, {}, {Tagged: true}}
	for _, err := range b.runAll(t, o, fn, fn, fn) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([][2]int{{3, 2}, {3, 2}, {3, 2}}, seen); diff != "" {
		t.Errorf("Calls and Tagged seen by the fns (-want +got):\n%s", diff)
	}
}

// TestStatsHistograms checks that every commit is counted once in each
// histogram, with the commit's time within its group's, and that a group
// held for 30 ms lands past the 25 ms bound.
func TestStatsHistograms(t *testing.T) {
	t.Parallel()
	b := setup(t, groupcommit.Config[*groupcommit.Tx]{})
	for i := range 6 {
		hold := time.Duration(0)
		if i == 5 {
			hold = 30 * time.Millisecond
		}
		err := b.g.Run(t.Context(), func(ctx context.Context, tx *groupcommit.Tx) error {
			time.Sleep(hold)
			return put(fmt.Sprintf("h-%d", i))(ctx, tx)
		}, groupcommit.Options{})
		if err != nil {
			t.Fatal(err)
		}
	}
	s := b.g.Stats()
	total := func(h groupcommit.Histogram) (n int64) {
		for _, c := range h.Counts {
			n += c
		}
		return n
	}
	if total(s.Commit) != 6 || total(s.Group) != 6 || s.Commits != 6 || s.Calls != 6 {
		t.Errorf("%+v; want 6 commits of 6 calls, each in both histograms", s)
	}
	if s.Group.Sum < s.Commit.Sum || s.Commit.Sum <= 0 {
		t.Errorf("commit time %v, group time %v; want a group's time to hold its commit's", s.Commit.Sum, s.Group.Sum)
	}
	// Buckets of setup: 1 ms, 25 ms, 1 s.
	if s.Group.Counts[2]+s.Group.Counts[3] < 1 {
		t.Errorf("a group held 30 ms was not counted past 25 ms: %v", s.Group.Counts)
	}
}
