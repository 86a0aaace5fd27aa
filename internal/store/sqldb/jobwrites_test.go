package sqldb_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestJobPassWritesTogether runs four jobs in one group, each giving a
// request its outcome as a movement job does: every request and job ends
// as written, in the group's one pass (on PostgreSQL the pass's updates
// and completions each go as one statement, whose count must be shared
// out right, or the group would run again).
func TestJobPassWritesTogether(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s, ctx := unwrap(t, st), t.Context()
		const n = 4
		base := time.Now()
		jobs, requests := make([]int64, n), make([]int64, n)
		for i := range n {
			jobs[i] = enqueue(t, s, base.Add(time.Duration(i-n)*time.Second))
		}
		err := s.InTx(ctx, func(ctx context.Context, tx store.Tx) (err error) {
			for i := range requests {
				r := store.Request{Type: store.RequestTransfer, UserName: "keeper1", CorrelationID: "c", Content: []byte(`{}`),
					Holdings: []livestock.CPH{livestock.MustCPH("01/100/0001")}}
				if requests[i], err = tx.InsertRequest(ctx, r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		of := map[int64]int64{} // job → its request
		for i := range jobs {
			of[jobs[i]] = requests[i]
		}
		releases := holdAll(t, s)
		retries := sqldb.SharedRetries(s)
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				_, err := s.RunJob(ctx, []string{"share"}, base, func(ctx context.Context, tx store.Tx, j store.Job) error {
					// Locked ahead by the claiming call, as movements' readAhead
					// does, no job reads before the commit: their writes wait
					// for it together.
					if len(tx.JobsAhead()) > 0 {
						if err := tx.LockRequests(ctx, requests); err != nil {
							return err
						}
					}
					r, err := tx.LockRequest(ctx, of[j.ID])
					if err != nil {
						return err
					}
					r.Status, r.UpdatedDate = store.StatusFail, r.UpdatedDate.Add(time.Minute)
					r.Errors = []livestock.FieldError{{Code: "S005", Message: "not on the source holding"}}
					return tx.UpdateRequest(ctx, r)
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		waitQueued(t, s, n)
		for _, release := range releases {
			release()
		}
		wg.Wait()
		if got := sqldb.SharedRetries(s) - retries; got != 0 {
			t.Errorf("the group ran again %d times; want its one pass", got)
		}
		for _, id := range requests {
			if r, err := s.Request(ctx, id); err != nil || r.Status != store.StatusFail || len(r.Errors) != 1 {
				t.Errorf("request %d = %s %v, %v; want Fail with its error", id, r.Status, r.Errors, err)
			}
		}
		for _, id := range jobs {
			if j, err := s.Job(ctx, id); err != nil || j.State != store.JobDone {
				t.Errorf("job %d = %+v, %v; want done", id, j, err)
			}
		}
	})
}
