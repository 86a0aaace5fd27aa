package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestGroupRunsAgainWithSavepoints: a group first runs without
// savepoints; when one of its fns fails, nothing of that run is kept, and
// the group runs again with a savepoint around each fn, so that the
// others' writes are committed once and the failing fn's not at all. The
// committer's next group then has savepoints from the start: each of its
// fns runs once, even when one fails. A store that defers its writes
// (PostgreSQL) runs every group optimistically first, to learn the order
// of its calls (groupcommit's Tx.SetKey), so there the second round runs twice too.
func TestGroupRunsAgainWithSavepoints(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s := unwrap(t, st)
		boom := errors.New("fn failed")
		second := 1 // calls of the failing fn in the second round, which is careful
		if s.Dialect() == "postgres" {
			second = 2
		}
		for round, wantFailing := range []int{2, second} {
			const n = 6
			var mu sync.Mutex
			calls := make([]int, n)
			errs := make([]error, n)
			releases := holdAll(t, s)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					errs[i] = s.InSharedTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
						mu.Lock()
						calls[i]++
						mu.Unlock()
						if err := audit(ctx, tx, fmt.Sprintf("run%d:%d", round, i)); err != nil {
							return err
						}
						if i == 2 {
							return boom // after writing: the write must not stay
						}
						return nil
					})
				})
			}
			waitQueued(t, s, n)
			for _, release := range releases {
				release()
			}
			wg.Wait()
			for i := range n {
				want, lines := error(nil), 1
				if i == 2 {
					want, lines = boom, 0
				}
				if !errors.Is(errs[i], want) {
					t.Errorf("round %d, call %d: %v; want %v", round, i, errs[i], want)
				}
				wantAudit(t, s, fmt.Sprintf("run%d:%d", round, i), lines)
				if calls[i] < 1 || calls[i] > wantFailing {
					t.Errorf("round %d, call %d: fn called %d times; want 1 to %d", round, i, calls[i], wantFailing)
				}
			}
			if calls[2] != wantFailing {
				t.Errorf("round %d: the failing fn was called %d times; want %d", round, calls[2], wantFailing)
			}
		}
	})
}
