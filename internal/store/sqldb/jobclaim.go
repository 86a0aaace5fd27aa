package sqldb

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// Jobs claimed together. A claim is a statement (a round trip on
// PostgreSQL) that walks the claim index from its start, over the entries
// of jobs done since the last vacuum. In a group's optimistic pass
// (package groupcommit) the first RunJob claims as many jobs as the pass
// has RunJob calls (Tx.Tagged), in one statement, and the others take
// theirs from what it claimed; on PostgreSQL their completions go in the
// group's batch (deferred.go). A pass with savepoints claims one job a
// call: a job claimed inside one call's savepoint is let go when that
// call fails, and must not be left to another call of the group.

// jobClaims are the jobs claimed ahead for a group's RunJob calls.
type jobClaims struct {
	kinds   []string    // of the claim: a call of other kinds claims alone
	jobs    []store.Job // claimed, not yet taken
	drained bool        // the claim found fewer due jobs than it asked for
	claimer bool        // the call running now made the claim (JobsAhead)
}

// claim takes a due job of kinds for a RunJob call on t; found is false
// when none is due.
func (t *tx) claim(ctx context.Context, kinds []string, now time.Time) (j store.Job, found bool, err error) {
	c := &t.claims
	c.claimer = false
	if !t.tx.Optimistic() || t.tx.Tagged() < 2 || (c.kinds != nil && !slices.Equal(c.kinds, kinds)) {
		return t.claimOne(ctx, kinds, now)
	}
	if len(c.jobs) == 0 && !c.drained {
		want := max(t.tx.Tagged()-t.jobsTaken, 1)
		jobs, err := t.claimJobs(ctx, kinds, now, t.failedJobs, want)
		if err != nil {
			return store.Job{}, false, err
		}
		c.kinds, c.jobs = kinds, jobs
		c.drained = len(c.jobs) < want
		c.claimer = true
	}
	if len(c.jobs) == 0 {
		return store.Job{}, false, nil
	}
	j, c.jobs = c.jobs[0], c.jobs[1:]
	t.jobsTaken++
	return j, true, nil
}

// claimOne claims one job alone, as a pass with savepoints does. It passes
// over the jobs claimed ahead for other calls: this transaction holds
// them, so SKIP LOCKED would not.
func (t *tx) claimOne(ctx context.Context, kinds []string, now time.Time) (store.Job, bool, error) {
	skip := t.failedJobs
	for _, j := range t.claims.jobs {
		skip = append(slices.Clip(skip), j.ID)
	}
	jobs, err := t.claimJobs(ctx, kinds, now, skip, 1)
	if err != nil || len(jobs) == 0 {
		return store.Job{}, false, err
	}
	return jobs[0], true, nil
}

// claimJobs claims at most limit due jobs of kinds, but none of skip. A
// claim from the floor that finds none claims again from the start
// (claimfloor.go), so that no job due is left for a later call.
func (t *tx) claimJobs(ctx context.Context, kinds []string, now time.Time, skip []int64, limit int) ([]store.Job, error) {
	for {
		query, args, fromFloor := t.s.claimQuery(kinds, now, skip, limit)
		rows, err := t.tx.QueryContext(ctx, query, args...)
		if err != nil {
			return nil, err
		}
		var jobs []store.Job
		if err := scanJobs(rows, &jobs); err != nil {
			return nil, err
		}
		if t.s.tune.ClaimFloor != "" {
			t.s.floor.claimed(jobs)
		}
		if len(jobs) > 0 || !fromFloor {
			return jobs, nil
		}
	}
}

// scanJobs appends the jobs of rows to list, and closes rows.
func scanJobs(rows *sql.Rows, list *[]store.Job) error {
	defer rows.Close()
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return err
		}
		*list = append(*list, j)
	}
	return rows.Err()
}

// JobsAhead returns the jobs claimed for the RunJob calls still to come
// to the call whose claim took them, so that it may read ahead for them
// (LockRequests); to the later calls, nothing, as that call has read.
func (t *tx) JobsAhead() []store.Job {
	if !t.claims.claimer {
		return nil
	}
	return slices.Clone(t.claims.jobs)
}
