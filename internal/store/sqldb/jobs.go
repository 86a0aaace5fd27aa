package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	jobColumns = `id, kind, payload, state, attempts, max_attempts, run_at, last_error, created_at, finished_at`
	jobSQL     = `SELECT ` + jobColumns + ` FROM jobs WHERE id = $1`
	// claimJobSQL is completed by the $2… of the kinds and the dialect's
	// ClaimLock; the (state, run_at) index serves it.
	claimJobSQL = `SELECT ` + jobColumns + ` FROM jobs
		WHERE state = 'available' AND run_at <= $1 AND kind IN (%s)
		ORDER BY run_at, id LIMIT 1`
	finishJobSQL = `UPDATE jobs SET state = 'done', finished_at = $2 WHERE id = $1`
	retryJobSQL  = `UPDATE jobs SET attempts = attempts + 1, last_error = $2, run_at = $3,
		state = $4, finished_at = $5 WHERE id = $1 AND state = 'available'`
	jobCountsSQL = `SELECT state, count(*) FROM jobs GROUP BY state`
)

// RunJob claims the oldest due job of one of kinds and runs fn in the
// claiming transaction; see store.Store. As in InTx, fn must write through
// the tx it is given.
func (s *Store) RunJob(ctx context.Context, kinds []string, now time.Time,
	fn func(ctx context.Context, tx store.Tx, j store.Job) error) (ran bool, err error) {
	if len(kinds) == 0 {
		return false, nil
	}
	sqlTx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		s.wrap(&err, "RunJob")
		return false, err
	}
	committed := false
	defer func() {
		if !committed {
			rollback(sqlTx)
		}
	}()
	args := []any{s.at(now)}
	marks := make([]string, len(kinds))
	for i, k := range kinds {
		args = append(args, k)
		marks[i] = fmt.Sprintf("$%d", i+2)
	}
	query := fmt.Sprintf(claimJobSQL, strings.Join(marks, ", ")) + s.d.ClaimLock
	j, err := scanJob(sqlTx.QueryRowContext(ctx, query, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		s.wrap(&err, "RunJob: claim")
		return false, err
	}
	if err := fn(ctx, &tx{s: s, tx: sqlTx}, j); err != nil {
		return true, err
	}
	if _, err := sqlTx.ExecContext(ctx, finishJobSQL, j.ID, s.at(now)); err != nil {
		s.wrap(&err, "RunJob: finish")
		return true, err
	}
	if err := sqlTx.Commit(); err != nil {
		s.wrap(&err, "RunJob: commit")
		return true, err
	}
	committed = true
	return true, nil
}

// RetryJob counts a failed attempt of an available job and makes it due at
// runAt, or failed when final.
func (s *Store) RetryJob(ctx context.Context, id int64, runAt time.Time, lastError string, final bool) (err error) {
	defer s.wrap(&err, "RetryJob")
	state, finished := store.JobAvailable, any(nil)
	if final {
		state, finished = store.JobFailed, s.at(time.Now())
	}
	res, err := s.w.ExecContext(ctx, retryJobSQL, id, lastError, s.at(runAt), string(state), finished)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	j, err := s.Job(ctx, id)
	if err != nil {
		return err
	}
	return livestock.Errorf(livestock.KindConflict, "job %d is %s", id, j.State)
}

// JobCounts reports the number of jobs in every state, zero included.
func (s *Store) JobCounts(ctx context.Context) (counts map[store.JobState]int, err error) {
	defer s.wrap(&err, "JobCounts")
	rows, err := s.r.QueryContext(ctx, jobCountsSQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	counts = map[store.JobState]int{store.JobAvailable: 0, store.JobDone: 0, store.JobFailed: 0}
	for rows.Next() {
		var state store.JobState
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return nil, err
		}
		counts[state] = n
	}
	return counts, rows.Err()
}

// Job returns one job.
func (s *Store) Job(ctx context.Context, id int64) (j store.Job, err error) {
	defer s.wrap(&err, "Job")
	j, err = scanJob(s.r.QueryRowContext(ctx, jobSQL, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Job{}, notFound("no job %d", id)
	}
	return j, err
}

func scanJob(row *sql.Row) (store.Job, error) {
	var j store.Job
	var lastError sql.NullString
	err := row.Scan(&j.ID, &j.Kind, &j.Payload, &j.State, &j.Attempts, &j.MaxAttempts,
		instant{&j.RunAt}, &lastError, instant{&j.CreatedAt}, instant{&j.FinishedAt})
	j.LastError = lastError.String
	return j, err
}
