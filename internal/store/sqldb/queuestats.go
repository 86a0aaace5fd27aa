package sqldb

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// analyzeEvery is how many jobs are enqueued between refreshes of the job
// queue's statistics, on a database whose Tuning names a statement for it.
//
// PostgreSQL plans the claim of a job (claimJobSQL) from the statistics of
// the jobs table. Until autovacuum first analyzes it, a minute or more
// after a queue starts to grow, they describe an empty table: the planner
// then expects the kind filter to leave one row, and sorts every due job
// instead of reading the first from the (state, run_at, id) index. With
// 20,000 queued that was 83 ms a claim against 0.07 ms; registrations
// waited seconds. The store refreshes the statistics itself as the queue
// grows, off the request path, one refresh at a time; the tuning's
// statement refreshes them only while the table is young, and leaves a
// grown one to autovacuum.
const analyzeEvery = 2000

// listingsFirst is the number of jobs enqueued (since the store opened)
// at which the listing tables' statistics are first refreshed, on a
// database whose Tuning names a statement for it; then at twice as many,
// and so on. Every submission enqueues a job, so the count follows the
// requests.
//
// The listings read request_holdings in (cph, request_id) order and stop
// at the page's end. Before the table is first analyzed PostgreSQL
// expects a holding to have about 20 rows, and plans a bitmap scan of all
// of them and a sort instead: with 4,500 requests on one holding a page of
// 20 took 23 ms, most of it in the sort. Autovacuum would analyze the
// tables within a minute or so, unless it is off; the store does it while
// they are young (the tuning's statement checks), and leaves a registry
// of millions to autovacuum.
const listingsFirst = 1000

// queueStats counts the jobs enqueued since the last refresh.
type queueStats struct {
	enqueued        atomic.Int64 // since the last refresh of the queue's statistics
	total           atomic.Int64 // since the store opened
	running         atomic.Bool  // a refresh of the queue's statistics
	runningListings atomic.Bool  // a refresh of the listing tables'
	wg              sync.WaitGroup
}

// jobEnqueued counts one job, and starts a refresh of the queue's
// statistics when analyzeEvery have been enqueued since the last, and of
// the listing tables' at listingsFirst, twice that, and so on. A job of a
// transaction that rolls back is counted too: the count is a trigger, not
// a tally.
func (s *Store) jobEnqueued() {
	if n := s.queue.total.Add(1); s.tune.AnalyzeListings != "" && n%listingsFirst == 0 && isPowerOfTwo(n/listingsFirst) {
		s.refreshStats(&s.queue.runningListings, s.tune.AnalyzeListings, "the listing tables'")
	}
	if s.tune.AnalyzeQueue == "" || s.queue.enqueued.Add(1) < analyzeEvery {
		return
	}
	if s.refreshStats(&s.queue.running, s.tune.AnalyzeQueue, "the job queue's") {
		s.queue.enqueued.Store(0)
	}
}

// refreshStats runs stmt in the background unless running says it is
// already, and reports whether it started it.
func (s *Store) refreshStats(running *atomic.Bool, stmt, what string) bool {
	if !running.CompareAndSwap(false, true) {
		return false
	}
	s.queue.wg.Add(1)
	go func() {
		defer s.queue.wg.Done()
		defer running.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := s.w.ExecContext(ctx, stmt); err != nil {
			slog.Warn("refreshing "+what+" statistics", slog.String("error", err.Error()))
		}
	}()
	return true
}

func isPowerOfTwo(n int64) bool { return n > 0 && n&(n-1) == 0 }
