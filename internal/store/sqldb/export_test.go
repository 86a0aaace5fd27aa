package sqldb

import (
	"context"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// Test hooks, for the external tests of group commit (group_test.go).

// SharedCommits reports how many shared transactions s has committed.
func SharedCommits(s *Store) int64 { return s.group.Stats().Commits }

// SharedRetries reports how many groups of s ran again with savepoints
// after their optimistic pass gave up.
func SharedRetries(s *Store) int64 { return s.group.Stats().Retried }

// SharedBatches reports how many batches of deferred writes s has sent.
func SharedBatches(s *Store) int64 { return s.group.Stats().Batches }

// SharedQueued reports how many calls of InSharedTx, RunJob and RetryJob
// wait for a committer.
func SharedQueued(s *Store) int { return s.group.Queued() }

// Kept reports whether s's writer keeps a prepared statement of query.
func Kept(s *Store, query string) bool { return s.w.Kept(query) }

// AuditSQL is the statement Tx.Audit runs.
const AuditSQL = auditSQL

// MaxBackground is how many job calls a group with requests in it takes
// at least (as many as its requests when they are more).
const MaxBackground = groupcommit.MaxBackground

// Analyze refreshes the planner's statistics, as autovacuum (PostgreSQL)
// or an operator's ANALYZE (SQLite) would on a database in service, so
// that a benchmark measures the plan a served database gets.
func Analyze(s *Store) error {
	_, err := s.w.Exec("ANALYZE")
	return err
}

// ListingPlan is SQLite's EXPLAIN QUERY PLAN of the listing q compiles
// to, one line a step.
func ListingPlan(ctx context.Context, s *Store, q store.RequestQuery) ([]string, error) {
	query, args, err := s.requestsQuery(q)
	if err != nil || query == "" {
		return nil, err
	}
	rows, err := s.r.DB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		plan = append(plan, detail)
	}
	return plan, rows.Err()
}
