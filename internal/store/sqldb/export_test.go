package sqldb

// Test hooks, for the external tests of group commit (group_test.go).

// SharedCommits reports how many shared transactions s has committed.
func SharedCommits(s *Store) int64 { return s.group.commits.Load() }

// SharedQueued reports how many calls of InSharedTx wait for a committer.
func SharedQueued(s *Store) int { return len(s.group.calls) }
