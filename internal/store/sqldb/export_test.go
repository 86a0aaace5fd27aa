package sqldb

import "github.com/drover-registry/drover/internal/store/sqldb/groupcommit"

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
