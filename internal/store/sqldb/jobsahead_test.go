package sqldb_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestJobsAhead queues three job runs behind held committers, so that
// they share one group: the call whose claim took the jobs is told the
// other two (to read ahead for them), and the calls after it nothing.
func TestJobsAhead(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s, ctx := unwrap(t, st), t.Context()
		base := time.Now()
		ids := []int64{enqueue(t, s, base.Add(-3*time.Second)), enqueue(t, s, base.Add(-2*time.Second)), enqueue(t, s, base.Add(-time.Second))}
		releases := holdAll(t, s)
		var mu sync.Mutex
		ahead := map[int64][]int64{} // job → the jobs its call was told of
		var wg sync.WaitGroup
		for range ids {
			wg.Go(func() {
				_, err := s.RunJob(ctx, []string{"share"}, base, func(ctx context.Context, tx store.Tx, j store.Job) error {
					var told []int64
					for _, a := range tx.JobsAhead() {
						told = append(told, a.ID)
					}
					mu.Lock()
					ahead[j.ID] = told
					mu.Unlock()
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		waitQueued(t, s, len(ids))
		for _, release := range releases {
			release()
		}
		wg.Wait()
		first := ahead[ids[0]] // the oldest job is claimed first, by the claiming call
		slices.Sort(first)
		if !slices.Equal(first, ids[1:]) {
			t.Errorf("the claiming call was told of jobs %v; want %v", first, ids[1:])
		}
		for _, id := range ids[1:] {
			if len(ahead[id]) != 0 {
				t.Errorf("the call of job %d was told of jobs %v; want none", id, ahead[id])
			}
		}
	})
}
