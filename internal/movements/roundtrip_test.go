package movements_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestTransferJobRoundTrips runs the jobs of bench/movements' transfers
// (keeper1 moving one of 25 sheep to its own sale yard; most fail, the
// sheep having moved already) on several workers, so that they share
// groups, and reports the statements a job sent: on PostgreSQL each one
// a round trip its committer waits for, holding the lock on moves.
func TestTransferJobRoundTrips(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		svc, _, keeper1 := sandboxService(t, s, nil)
		today := time.Now().Format(time.DateOnly)
		const n = 200
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := w; i < n; i += 8 {
					body := fmt.Sprintf(`{"content": {"transferDate": %q, "species": "Sheep", "userHolding": "01/100/0257",
						"sourceHolding": "01/100/0257", "destinationHolding": "01/100/0258", "animalCount": 1,
						"trackingId": "rt-%d", "movementGroups": [{"devices": [{"tagNumber": "UK0130181 %05d"}]}]}}`, today, i, 1+i%25)
					_, err := svc.Submit(ctx, store.RequestTransfer, movements.Posted{User: keeper1, Body: []byte(body),
						Render: func(store.Request) (int, []byte, error) { return 201, nil, nil }})
					if err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()

		r := jobs.New(s, jobs.Options{Workers: 16, Poll: 10 * time.Millisecond})
		svc.Register(r)
		before := s.GroupStats()
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); _ = r.Run(rctx) }()
		for wait := time.Now(); time.Since(wait) < time.Minute; time.Sleep(10 * time.Millisecond) {
			if b, err := s.JobBacklog(ctx); err == nil && b[store.JobAvailable] == 0 {
				break
			}
		}
		cancel()
		<-done
		after := s.GroupStats()
		calls := after.Calls - before.Calls
		if calls < n {
			t.Fatalf("%d job calls kept; want at least %d", calls, n)
		}
		trips := after.RoundTrips - before.RoundTrips
		t.Logf("%s: %d jobs in %d groups: %.2f statements a job", s.Dialect(), calls, after.Commits-before.Commits,
			float64(trips)/float64(calls))
	})
}
