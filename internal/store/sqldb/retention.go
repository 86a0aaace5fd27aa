package sqldb

import (
	"context"
	"fmt"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// deleteRepliesSQL deletes one batch of the oldest replies. The inner
// select walks the created_at index (migration 00005) in order and stops
// at the limit, so a batch costs the same however many replies are kept;
// the key on (user_name, correlation_id) then finds each row. %s is the
// dialect's ClaimLock: replicas deleting at the same moment on PostgreSQL
// take disjoint batches instead of queueing on each other's row locks (a
// row deleted under a replica that waited anyway is simply not counted).
const deleteRepliesSQL = `DELETE FROM replies WHERE (user_name, correlation_id) IN (
		SELECT user_name, correlation_id FROM replies WHERE created_at < $1
		ORDER BY created_at LIMIT $2%s)`

// deleteDoneJobsSQL deletes one batch of the oldest done jobs, found as
// deleteRepliesSQL finds replies: the claim index (state, run_at, id)
// holds the done jobs in the order they were due.
const deleteDoneJobsSQL = `DELETE FROM jobs WHERE id IN (
		SELECT id FROM jobs WHERE state = 'done' AND run_at < $1
		ORDER BY run_at, id LIMIT $2%s)`

// DeleteRepliesBefore deletes at most limit replies created before before,
// oldest first, on the writer, in one statement (so in one short
// transaction of its own).
func (s *Store) DeleteRepliesBefore(ctx context.Context, before time.Time, limit int) (deleted int, err error) {
	defer s.wrap(&err, "DeleteRepliesBefore")
	return s.deleteBatch(ctx, deleteRepliesSQL, "replies", before, limit)
}

// DeleteDoneJobsBefore deletes at most limit done jobs due before before,
// oldest first, as DeleteRepliesBefore does replies.
func (s *Store) DeleteDoneJobsBefore(ctx context.Context, before time.Time, limit int) (deleted int, err error) {
	defer s.wrap(&err, "DeleteDoneJobsBefore")
	return s.deleteBatch(ctx, deleteDoneJobsSQL, "jobs", before, limit)
}

// deleteBatch runs one of the retention deletes, query with its %s for
// the dialect's ClaimLock.
func (s *Store) deleteBatch(ctx context.Context, query, what string, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, livestock.Errorf(livestock.KindInvalid, "a batch of %d %s: the limit must be positive", limit, what)
	}
	res, err := s.w.ExecContext(ctx, fmt.Sprintf(query, s.d.ClaimLock), s.at(before), limit)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
