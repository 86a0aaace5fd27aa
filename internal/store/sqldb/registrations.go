package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	registrationColumns = `id, user_name, async, status, request_date, updated_date, next_poll_at,
		correlation_id, body, identifier, errors, warnings`
	registrationSQL = `SELECT ` + registrationColumns + ` FROM registrations WHERE id = $1`
	// insertRegistrationSQL does nothing, and changes no row, when the id
	// exists: the transaction stays usable (a unique violation would abort
	// it on PostgreSQL).
	insertRegistrationSQL = `INSERT INTO registrations (` + registrationColumns + `)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING`
	updateRegistrationSQL = `UPDATE registrations SET status = $2, updated_date = $3, identifier = $4,
		errors = $5, warnings = $6 WHERE id = $1`
	// takePollSQL allows a poll and moves the next one on in one statement,
	// so of two polls racing at one instant exactly one matches: on
	// PostgreSQL the second waits for the first's row lock, then finds
	// next_poll_at moved past now.
	takePollSQL = `UPDATE registrations SET next_poll_at = $3 WHERE id = $1 AND next_poll_at <= $2
		RETURNING ` + registrationColumns
	notFoundRegistration = "no registration %q"
)

// Registration returns one registration request.
func (s *Store) Registration(ctx context.Context, id string) (r store.Registration, err error) {
	defer s.wrap(&err, "Registration")
	return registration(ctx, s.r, registrationSQL, id)
}

// TakePoll allows a poll of registration id at now, and makes the next
// one due at next, when now is at or after its NextPollAt; otherwise it
// returns the record as it is with ok false.
func (s *Store) TakePoll(ctx context.Context, id string, now, next time.Time) (r store.Registration, ok bool, err error) {
	defer s.wrap(&err, "TakePoll")
	r, err = scanRegistration(s.w.QueryRowContext(ctx, takePollSQL, id, s.at(now), s.at(next)))
	if err == nil {
		return r, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return store.Registration{}, false, err
	}
	r, err = registration(ctx, s.r, registrationSQL, id)
	return r, false, err
}

// InsertRegistration stores r. A zero RequestDate is taken as now, a zero
// UpdatedDate or NextPollAt as the RequestDate, and an empty Status as
// Pending. An id that exists is KindConflict.
func (t *tx) InsertRegistration(ctx context.Context, r store.Registration) (err error) {
	defer t.s.wrap(&err, "InsertRegistration")
	if r.RequestDate.IsZero() {
		r.RequestDate = time.Now()
	}
	if r.UpdatedDate.IsZero() {
		r.UpdatedDate = r.RequestDate
	}
	if r.NextPollAt.IsZero() {
		r.NextPollAt = r.RequestDate
	}
	if r.Status == "" {
		r.Status = store.RegistrationPending
	}
	errs, warns, err := encodeFieldErrors(r.Errors, r.Warnings)
	if err != nil {
		return err
	}
	s := t.s
	res, err := t.tx.ExecContext(ctx, insertRegistrationSQL, r.ID, r.UserName, r.Async, string(r.Status),
		s.at(r.RequestDate), s.at(r.UpdatedDate), s.at(r.NextPollAt), r.CorrelationID, notNilBytes(r.Body),
		nullString(r.Identifier), errs, warns)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return livestock.Errorf(livestock.KindConflict, "a registration %q exists", r.ID)
}

// LockRegistration returns one registration, held until the transaction
// ends.
func (t *tx) LockRegistration(ctx context.Context, id string) (r store.Registration, err error) {
	defer t.s.wrap(&err, "LockRegistration")
	return registration(ctx, t.tx, registrationSQL+t.s.d.RowLock, id)
}

// UpdateRegistration writes the fields of r that deciding it changes.
func (t *tx) UpdateRegistration(ctx context.Context, r store.Registration) (err error) {
	defer t.s.wrap(&err, "UpdateRegistration")
	errs, warns, err := encodeFieldErrors(r.Errors, r.Warnings)
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, updateRegistrationSQL, r.ID, string(r.Status), t.s.at(r.UpdatedDate),
		nullString(r.Identifier), errs, warns)
	return affected(res, err, notFoundRegistration, r.ID)
}

func registration(ctx context.Context, q querier, query, id string) (store.Registration, error) {
	r, err := scanRegistration(q.QueryRowContext(ctx, query, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Registration{}, notFound(notFoundRegistration, id)
	}
	return r, err
}

// scanRegistration reads one row of registrationColumns.
func scanRegistration(row interface{ Scan(...any) error }) (store.Registration, error) {
	var r store.Registration
	var errs, warns string
	err := row.Scan(&r.ID, &r.UserName, &r.Async, &r.Status, instant{&r.RequestDate}, instant{&r.UpdatedDate},
		instant{&r.NextPollAt}, &r.CorrelationID, &r.Body, text{&r.Identifier}, &errs, &warns)
	if err != nil {
		return store.Registration{}, err
	}
	if len(r.Body) == 0 {
		r.Body = nil
	}
	if r.Errors, err = decodeFieldErrors(errs); err != nil {
		return store.Registration{}, err
	}
	r.Warnings, err = decodeFieldErrors(warns)
	return r, err
}
