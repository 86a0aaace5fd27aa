package sqldb

import (
	"cmp"
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
	// claimJobSQL is completed by the $2… of the kinds, the ids to pass
	// over (if any) and the dialect's ClaimLock; the (state, run_at) index
	// serves it.
	claimJobSQL = `SELECT ` + jobColumns + ` FROM jobs
		WHERE state = 'available' AND run_at <= $1 AND kind IN (%s)%s
		ORDER BY run_at, id LIMIT %s`
	finishJobSQL = `UPDATE jobs SET state = 'done', finished_at = $2 WHERE id = $1`
	retryJobSQL  = `UPDATE jobs SET attempts = attempts + 1, last_error = $2, run_at = $3,
		state = $4, finished_at = $5 WHERE id = $1 AND state = 'available'`
	jobCountsSQL = `SELECT state, count(*) FROM jobs GROUP BY state`
	// jobBacklogSQL reads the claim index (state, run_at, id) for two
	// states only: done jobs, which only grow, are never read.
	jobBacklogSQL = `SELECT state, count(*) FROM jobs WHERE state IN ('available', 'failed') GROUP BY state`
)

// RunJob claims the oldest due job of one of kinds and runs fn on the
// claiming transaction; see store.JobStore. The claim, fn and marking the job
// done run in one call of InSharedTx, so that jobs share their commit with
// each other and with the submissions that arrive beside them: one fsync
// for a group rather than one a job. An error of fn rolls back to the
// call's savepoint, leaving the job as it was, and RunJob returns only
// after the group committed, so the job's effects and its completion are
// durable together or not at all. As with InSharedTx, fn is given ctx's
// values but not its cancellation, must write through the tx it is given,
// and must not block on anything but the database.
func (s *Store) RunJob(ctx context.Context, kinds []string, now time.Time,
	fn func(ctx context.Context, tx store.Tx, j store.Job) error) (ran bool, err error) {
	if len(kinds) == 0 {
		return false, nil
	}
	var held int64 // the job this call failed under a savepoint (jobheld.go)
	err = s.inSharedTx(ctx, func(ctx context.Context, stx store.Tx) (err error) {
		t := stx.(*tx)
		ran = false    // this may be the group's second run (package groupcommit)
		if held != 0 { // that pass is undone: the job is no longer this call's failure
			s.held.release(held)
			held = 0
		}
		j, found, err := t.claim(ctx, kinds, now)
		for err == nil && found && s.held.has(j.ID) {
			// Another call's failure, not yet recorded (jobheld.go): its
			// claim query ran before the hold. Passed over as a failure
			// of this transaction is.
			t.failedJobs = append(t.failedJobs, j.ID)
			j, found, err = t.claim(ctx, kinds, now)
		}
		if err != nil {
			return s.d.Error("RunJob: claim", err)
		}
		if !found {
			return nil
		}
		// ran is written here, on the committer, before InSharedTx hands
		// back the outcome, and read after.
		ran = true
		defer func() {
			// Rolled back to the savepoint, the job is due as before: the
			// calls after this one in the group must not take it again.
			if err != nil {
				t.failedJobs = append(t.failedJobs, j.ID)
			}
		}()
		if err := fn(ctx, t, j); err != nil {
			// A pass with savepoints (or of one call) is the group's last:
			// the failure stands once it commits, and until the caller
			// records it (RetryJob) this store's claims pass over the job.
			if !t.tx.Optimistic() {
				s.held.hold(j.ID)
				held = j.ID
			}
			return err
		}
		if t.tx.Deferring() {
			t.tx.Later(rankFinishJob, "", 1, cmp.Or(s.tune.FinishJob, finishJobSQL), j.ID, s.at(now))
			return nil
		}
		if _, err := t.tx.ExecContext(ctx, finishJobSQL, j.ID, s.at(now)); err != nil {
			return s.d.Error("RunJob: finish", err)
		}
		return nil
	}, true, true)
	return ran, err
}

// claimQuery is the claim of the limit oldest due jobs of kinds, but none
// of skip; fromFloor says it starts from the claim floor (claimfloor.go).
func (s *Store) claimQuery(kinds []string, now time.Time, skip []int64, limit int) (query string, args []any, fromFloor bool) {
	skip = s.held.appendTo(skip)
	args = []any{s.at(now)}
	mark := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	marks := make([]string, 0, len(kinds))
	for _, k := range kinds {
		marks = append(marks, mark(k))
	}
	not := ""
	if len(skip) > 0 {
		ids := make([]string, 0, len(skip))
		for _, id := range skip {
			ids = append(ids, mark(id))
		}
		not = " AND id NOT IN (" + strings.Join(ids, ", ") + ")"
	}
	if s.tune.ClaimFloor != "" {
		var runAt time.Time
		if runAt, fromFloor = s.floor.from(time.Now()); fromFloor {
			not += " AND " + strings.ReplaceAll(s.tune.ClaimFloor, "{at}", mark(s.at(runAt)))
		}
	}
	return fmt.Sprintf(claimJobSQL, strings.Join(marks, ", "), not, mark(limit)) + s.d.ClaimLock, args, fromFloor
}

// RetryJob counts a failed attempt of an available job and makes it due at
// runAt, or failed when final. It too shares a commit (InSharedTx).
func (s *Store) RetryJob(ctx context.Context, id int64, runAt time.Time, lastError string, final bool) error {
	state, finished := store.JobAvailable, any(nil)
	if final {
		state, finished = store.JobFailed, s.at(time.Now())
	}
	defer s.held.release(id) // recorded, or the store is failing: claims may take it again
	return s.inSharedTx(ctx, func(ctx context.Context, stx store.Tx) (err error) {
		defer s.wrap(&err, "RetryJob")
		t := stx.(*tx)
		res, err := t.tx.ExecContext(ctx, retryJobSQL, id, lastError, s.at(runAt), string(state), finished)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		j, err := scanJob(t.tx.QueryRowContext(ctx, jobSQL, id))
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("no job %d", id)
		}
		if err != nil {
			return err
		}
		return livestock.Errorf(livestock.KindConflict, "job %d is %s", id, j.State)
	}, true, false)
}

// JobCounts reports the number of jobs in every state, zero included. It
// reads every job: for tests (storetest.Inspector), not part of store.Store.
func (s *Store) JobCounts(ctx context.Context) (counts map[store.JobState]int, err error) {
	defer s.wrap(&err, "JobCounts")
	return s.countJobs(ctx, jobCountsSQL, store.JobAvailable, store.JobDone, store.JobFailed)
}

// JobBacklog reports the number of jobs available and failed, zero
// included.
func (s *Store) JobBacklog(ctx context.Context) (counts map[store.JobState]int, err error) {
	defer s.wrap(&err, "JobBacklog")
	return s.countJobs(ctx, jobBacklogSQL, store.JobAvailable, store.JobFailed)
}

// countJobs runs query, which counts jobs by state, and fills in zero for
// each of states it does not name.
func (s *Store) countJobs(ctx context.Context, query string, states ...store.JobState) (map[store.JobState]int, error) {
	rows, err := s.r.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	counts := map[store.JobState]int{}
	for _, st := range states {
		counts[st] = 0
	}
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

// Job returns one job, for tests (storetest.Inspector); not part of
// store.Store.
func (s *Store) Job(ctx context.Context, id int64) (j store.Job, err error) {
	defer s.wrap(&err, "Job")
	j, err = scanJob(s.r.QueryRowContext(ctx, jobSQL, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Job{}, notFound("no job %d", id)
	}
	return j, err
}

func scanJob(row interface{ Scan(...any) error }) (store.Job, error) {
	var j store.Job
	var lastError sql.NullString
	err := row.Scan(&j.ID, &j.Kind, &j.Payload, &j.State, &j.Attempts, &j.MaxAttempts,
		instant{&j.RunAt}, &lastError, instant{&j.CreatedAt}, instant{&j.FinishedAt})
	j.LastError = lastError.String
	return j, err
}
