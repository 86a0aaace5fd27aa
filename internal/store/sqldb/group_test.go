package sqldb_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqldb"
	"github.com/drover-registry/drover/internal/store/sqlite"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// unwrap returns the sqldb.Store beneath a store of either dialect.
func unwrap(tb testing.TB, s store.Store) *sqldb.Store {
	switch s := s.(type) {
	case *sqlite.Store:
		return s.Store
	case *postgres.Store:
		return s.Store
	}
	tb.Fatalf("%T is not built on sqldb", s)
	return nil
}

// TestGroupsForm holds every committer while 64 callers queue up, then
// checks that they shared a commit or two rather than making 64.
func TestGroupsForm(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s := unwrap(t, st)
		ctx := t.Context()
		k := s.Committers()
		free, holders := make(chan struct{}), make(chan error, k)
		for range k { // one at a time, so that each takes a committer of its own
			held := make(chan struct{})
			go func() {
				holders <- s.InSharedTx(ctx, func(context.Context, store.Tx) error {
					close(held)
					<-free
					return nil
				})
			}()
			<-held
		}
		before := sqldb.SharedCommits(s)
		const n = 64
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				err := s.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
					return tx.Audit(ctx, store.AuditEntry{Action: "group", Subject: fmt.Sprintf("g-%d", i)})
				})
				if err != nil {
					t.Errorf("InSharedTx %d: %v", i, err)
				}
			})
		}
		// Wait for the callers to queue, but not for ever: a queue that
		// cannot take them all must fail the test below, not hang it.
		waitQueued(t, s, n)
		close(free)
		for range k {
			if err := <-holders; err != nil {
				t.Fatalf("InSharedTx holding a committer: %v", err)
			}
		}
		wg.Wait()
		// The holders' commits, then at most one per committer for the
		// 64, which were all queued when the committers were let go.
		if commits := sqldb.SharedCommits(s) - before; commits > int64(2*k) {
			t.Errorf("%d callers made %d commits with %d committers; want them to share", n, commits-int64(k), k)
		}
	})
}

// BenchmarkInsertRequestInTx stores a request and its job as Submit does,
// from 64 goroutines (32 per CPU on two), one transaction each.
func BenchmarkInsertRequestInTx(b *testing.B) { benchInsertRequest(b, false) }

// BenchmarkInsertRequestInSharedTx is the same with group commit; it
// reports the commits made per request.
func BenchmarkInsertRequestInSharedTx(b *testing.B) { benchInsertRequest(b, true) }

func benchInsertRequest(b *testing.B, shared bool) {
	for _, d := range storetest.Openers {
		b.Run(d.Name, func(b *testing.B) {
			st := d.Open(b)
			in := st.InTx
			if shared {
				in = st.InSharedTx
			}
			var seq atomic.Int64
			before := sqldb.SharedCommits(unwrap(b, st))
			b.SetParallelism(32)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					r := store.Request{Type: store.RequestTransfer, Status: store.StatusPending, UserName: "keeper1",
						TrackingID: fmt.Sprintf("B-%d", seq.Add(1)), CorrelationID: "bench",
						Holdings: twoHoldings, Content: []byte(`{"x": 1}`)}
					err := in(ctx, func(ctx context.Context, tx store.Tx) error {
						id, err := tx.InsertRequest(ctx, r)
						if err != nil {
							return err
						}
						_, err = tx.EnqueueJob(ctx, store.NewJob{Kind: "bench", Payload: fmt.Appendf(nil, `{"requestId":%d}`, id)})
						return err
					})
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			if shared {
				b.ReportMetric(float64(sqldb.SharedCommits(unwrap(b, st))-before)/float64(b.N), "commits/op")
				b.ReportMetric(float64(sqldb.SharedRetries(unwrap(b, st)))/float64(b.N), "retries/op")
			}
		})
	}
}

// TestGroupStatsHistograms checks that every commit is counted once in
// each histogram, with the commit's time within its group's, and that a
// group held for 30 ms lands past the 25 ms bound.
func TestGroupStatsHistograms(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s := unwrap(t, st)
		ctx := t.Context()
		write := func(i int, hold time.Duration) {
			err := s.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
				time.Sleep(hold)
				return tx.Audit(ctx, store.AuditEntry{Action: "histogram", Subject: fmt.Sprintf("h-%d", i)})
			})
			if err != nil {
				t.Fatalf("InSharedTx %d: %v", i, err)
			}
		}
		for i := range 5 {
			write(i, 0)
		}
		write(5, 30*time.Millisecond)
		g := s.GroupStats()
		total := func(h store.Histogram) (n int64) {
			for _, c := range h.Counts {
				n += c
			}
			return n
		}
		if total(g.Commit) != g.Commits || total(g.Group) != g.Commits || g.Commits < 6 {
			t.Errorf("%d commits, %d in the commit histogram, %d in the group one; want 6 or more in each", g.Commits, total(g.Commit), total(g.Group))
		}
		if g.Group.Sum < g.Commit.Sum || g.Commit.Sum <= 0 {
			t.Errorf("commit time %v, group time %v; want a group's time to hold its commit's", g.Commit.Sum, g.Group.Sum)
		}
		slow := int64(0)
		for i, le := range store.GroupBuckets {
			if le >= 25*time.Millisecond {
				slow += g.Group.Counts[i+1]
			}
		}
		if slow < 1 {
			t.Errorf("a group held 30 ms was not counted past 25 ms: %v", g.Group.Counts)
		}
	})
}

// TestGroupWritesBatched queues submissions while every committer is held,
// then lets one committer take them: on PostgreSQL their writes (request,
// holdings, job, reply) go in one batch before the commit, and the group
// is not run again. SQLite sends each write when made.
func TestGroupWritesBatched(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s, ctx := unwrap(t, st), t.Context()
		releases := holdAll(t, s)
		batches, retries := sqldb.SharedBatches(s), sqldb.SharedRetries(s)
		const n = 10
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				err := s.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
					r := store.Request{Type: store.RequestTransfer, Status: store.StatusPending, UserName: "keeper1",
						TrackingID: fmt.Sprintf("batched-%d", i), Holdings: twoHoldings}
					id, err := tx.InsertRequest(ctx, r)
					if err != nil {
						return err
					}
					if _, err := tx.EnqueueJob(ctx, store.NewJob{Kind: "batched"}); err != nil {
						return err
					}
					return tx.SaveReply(ctx, store.Reply{UserName: "keeper1", CorrelationID: fmt.Sprintf("batched-%d", id), Status: 201})
				})
				if err != nil {
					t.Errorf("InSharedTx %d: %v", i, err)
				}
			})
		}
		waitQueued(t, s, n)
		releases[0]()
		wg.Wait()
		for _, release := range releases[1:] {
			release()
		}
		want := int64(0)
		if s.Dialect() == "postgres" {
			want = 1
		}
		if got := sqldb.SharedBatches(s) - batches; got != want {
			t.Errorf("a group of %d submissions sent %d batches of writes; want %d", n, got, want)
		}
		if got := sqldb.SharedRetries(s) - retries; got != 0 {
			t.Errorf("%d groups ran again; want none", got)
		}
	})
}

// waitQueued waits until n calls are queued for s's committers (for at
// most 30 s): a test that holds them then knows the calls will share a
// group.
func waitQueued(t testing.TB, s *sqldb.Store, n int) {
	t.Helper()
	for wait := time.Now(); sqldb.SharedQueued(s) < n && time.Since(wait) < 30*time.Second; {
		time.Sleep(time.Millisecond)
	}
}
