package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

const (
	enqueueJobSQL = `INSERT INTO jobs (kind, payload, max_attempts, run_at, created_at)
		VALUES ($1, $2, $3, $4, $5)`
	// enqueueJobWithIDSQL is enqueueJobSQL with the id given ($6), for a
	// deferred insert (deferred.go); %s is the dialect's OverrideID.
	enqueueJobWithIDSQL = `INSERT INTO jobs (kind, payload, max_attempts, run_at, created_at, id)
		%s VALUES ($1, $2, $3, $4, $5, $6)`
	auditSQL = `INSERT INTO audit_log (at, user_name, action, subject, correlation_id, detail)
		VALUES ($1, $2, $3, $4, $5, $6)`
	auditEntriesSQL = `SELECT at, user_name, action, subject, correlation_id, detail
		FROM audit_log WHERE subject = $1 ORDER BY at, id`
)

// defaultMaxAttempts is a job's attempts when NewJob leaves it zero.
const defaultMaxAttempts = 25

// InTx runs fn in one write transaction, committed when fn returns nil and
// rolled back otherwise, or when fn panics (and the panic goes on). fn's
// error is returned as it is. fn must write through tx only: on SQLite tx
// holds the one writer connection, so another write of the store's own
// from inside fn would wait until ctx ends.
func (s *Store) InTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) (err error) {
	sqlTx, err := s.w.Begin(ctx)
	if err != nil {
		s.wrap(&err, "InTx")
		return err
	}
	committed := false
	defer func() {
		if !committed {
			rollback(sqlTx.Tx)
		}
	}()
	if err := fn(ctx, &tx{s: s, tx: sqlTx}); err != nil {
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		s.wrap(&err, "InTx")
		return err
	}
	committed = true
	return nil
}

// tx is store.Tx over one database/sql transaction.
type tx struct {
	s  *Store
	tx *groupcommit.Tx
	// failedJobs are the jobs whose fn failed earlier in this transaction
	// (RunJob in a group of InSharedTx), which later claims in it pass over.
	failedJobs []int64
	// jobsTaken are the RunJob calls of the pass (Tx.Tagged) that took a
	// job claimed ahead in claims (jobclaim.go).
	jobsTaken int
	claims    jobClaims
	cache     passCache // of an optimistic pass (groupcache.go)
	// ids are request and job ids taken ahead for the pass's deferred
	// inserts (nextID).
	ids [2][]int64
}

// EnqueueJob adds a job, due at j.RunAt or now.
func (t *tx) EnqueueJob(ctx context.Context, j store.NewJob) (id int64, err error) {
	defer t.s.wrap(&err, "EnqueueJob")
	now := time.Now()
	if j.RunAt.IsZero() {
		j.RunAt = now
	}
	if j.MaxAttempts <= 0 {
		j.MaxAttempts = defaultMaxAttempts
	}
	if j.Payload == nil {
		j.Payload = []byte{}
	}
	if t.tx.Deferring() {
		if id, ok := t.nextID(ctx, jobID); ok {
			t.tx.Later(rankJob, "", 1, fmt.Sprintf(enqueueJobWithIDSQL, t.s.d.OverrideID), j.Kind, j.Payload,
				j.MaxAttempts, t.s.at(j.RunAt), t.s.at(now), id)
			t.s.jobEnqueued()
			return id, nil
		}
	}
	id, err = t.insertID(ctx, enqueueJobSQL, j.Kind, j.Payload, j.MaxAttempts, t.s.at(j.RunAt), t.s.at(now))
	if err == nil {
		t.s.jobEnqueued()
	}
	return id, err
}

// Audit appends a line to the audit log; a zero At is taken as now.
func (t *tx) Audit(ctx context.Context, a store.AuditEntry) (err error) {
	defer t.s.wrap(&err, "Audit")
	if a.At.IsZero() {
		a.At = time.Now()
	}
	args := []any{t.s.at(a.At), a.UserName, a.Action, a.Subject, a.CorrelationID, a.Detail}
	if t.tx.Deferring() {
		t.tx.Later(rankOther, "", 1, auditSQL, args...)
		return nil
	}
	_, err = t.tx.ExecContext(ctx, auditSQL, args...)
	return err
}

// AuditEntries lists the audit lines of one subject, oldest first, as this
// transaction sees them: for tests (storetest.TxInspector), not part of
// store.Tx.
func (t *tx) AuditEntries(ctx context.Context, subject string) (entries []store.AuditEntry, err error) {
	defer t.s.wrap(&err, "AuditEntries")
	rows, err := t.tx.QueryContext(ctx, auditEntriesSQL, subject)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var a store.AuditEntry
		if err := rows.Scan(instant{&a.At}, &a.UserName, &a.Action, &a.Subject, &a.CorrelationID, &a.Detail); err != nil {
			return nil, err
		}
		entries = append(entries, a)
	}
	return entries, rows.Err()
}

// insertID runs insert, an INSERT of one row into a table keyed by an
// integer id the database assigns, and returns that id; sql.ErrNoRows
// when the insert's ON CONFLICT DO NOTHING inserted nothing. PostgreSQL
// answers a RETURNING id. SQLite (Tuning.LastInsertID) reads the id the
// connection last inserted, which on the one writer is this row's: a
// RETURNING clause there buffers the row in a temporary table, and the
// driver builds a result set to scan one integer from. Without both,
// EnqueueJob cost the writer 13 µs a job under the movements benchmark.
func (t *tx) insertID(ctx context.Context, insert string, args ...any) (int64, error) {
	if !t.s.tune.LastInsertID {
		var id int64
		err := t.tx.QueryRowContext(ctx, insert+" RETURNING id", args...).Scan(&id)
		return id, err
	}
	res, err := t.tx.ExecContext(ctx, insert, args...)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, err
	} else if n == 0 {
		return 0, sql.ErrNoRows
	}
	return res.LastInsertId()
}
