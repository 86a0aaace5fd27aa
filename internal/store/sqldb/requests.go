package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	requestColumns = `id, type, status, user_name, request_date, updated_date, movement_date, species,
		tracking_id, correlation_id, target_id, is_full_undone, undo_supported, content, errors, warnings, document_ref`
	requestSQL = `SELECT ` + requestColumns + ` FROM requests WHERE id = $1`
	// insertRequestSQL does nothing, and returns no row, when the user has
	// used the tracking id before: the transaction stays usable (a unique
	// violation would abort it on PostgreSQL).
	insertRequestSQL = `INSERT INTO requests (type, status, user_name, request_date, updated_date, movement_date,
		species, tracking_id, correlation_id, target_id, is_full_undone, undo_supported, content, errors, warnings,
		document_ref) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
		ON CONFLICT (user_name, tracking_id) WHERE tracking_id IS NOT NULL DO NOTHING RETURNING id`
	updateRequestSQL = `UPDATE requests SET status = $2, updated_date = $3, errors = $4, warnings = $5,
		is_full_undone = $6, undo_supported = $7, document_ref = $8 WHERE id = $1`
	// insertHoldingsSQL copies the request's type and movement_date into
	// each row, for the listing's date index (migration 00004).
	insertHoldingsSQL = `INSERT INTO request_holdings (request_id, cph, type, movement_date)
		SELECT id, h.cph, type, movement_date FROM requests, (%s) h WHERE id = $1`
	deleteHoldingsSQL = `DELETE FROM request_holdings WHERE request_id = $1`
)

// Request returns one request with its holdings.
func (s *Store) Request(ctx context.Context, id int64) (r store.Request, err error) {
	defer s.wrap(&err, "Request")
	return s.request(ctx, s.r, id, "")
}

// Request returns one request as this transaction sees it.
func (t *tx) Request(ctx context.Context, id int64) (r store.Request, err error) {
	defer t.s.wrap(&err, "Request")
	return t.s.request(ctx, t.tx, id, "")
}

// LockRequest returns one request, held until the transaction ends.
func (t *tx) LockRequest(ctx context.Context, id int64) (r store.Request, err error) {
	defer t.s.wrap(&err, "LockRequest")
	return t.s.request(ctx, t.tx, id, t.s.d.RowLock)
}

func (s *Store) request(ctx context.Context, q querier, id int64, lock string) (store.Request, error) {
	r, err := scanRequest(q.QueryRowContext(ctx, requestSQL+lock, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Request{}, notFound("no request %d", id)
	}
	if err != nil {
		return store.Request{}, err
	}
	list := []store.Request{r}
	if err := s.fillHoldings(ctx, q, list); err != nil {
		return store.Request{}, err
	}
	return list[0], nil
}

// InsertRequest stores r and its holdings and returns its id. A zero
// RequestDate is taken as now, a zero UpdatedDate as the RequestDate and
// an empty Status as Pending.
func (t *tx) InsertRequest(ctx context.Context, r store.Request) (id int64, err error) {
	defer t.s.wrap(&err, "InsertRequest")
	if r.RequestDate.IsZero() {
		r.RequestDate = time.Now()
	}
	if r.UpdatedDate.IsZero() {
		r.UpdatedDate = r.RequestDate
	}
	if r.Status == "" {
		r.Status = store.StatusPending
	}
	errs, warns, err := encodeFieldErrors(r.Errors, r.Warnings)
	if err != nil {
		return 0, err
	}
	s := t.s
	err = t.tx.QueryRowContext(ctx, insertRequestSQL, string(r.Type), string(r.Status), r.UserName,
		s.at(r.RequestDate), s.at(r.UpdatedDate), s.atOrNull(r.MovementDate), r.Species, nullString(r.TrackingID),
		r.CorrelationID, nullInt(r.TargetID), r.IsFullUndone, r.UndoSupported, notNilBytes(r.Content), errs, warns,
		r.DocumentRef).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, livestock.Errorf(livestock.KindConflict, "the trackingId %q was used before by this user", r.TrackingID)
	}
	if err != nil {
		return 0, err
	}
	return id, t.insertHoldings(ctx, id, r.Holdings)
}

// UpdateRequest writes the fields of r that a request's job changes, and
// replaces its holdings.
func (t *tx) UpdateRequest(ctx context.Context, r store.Request) (err error) {
	defer t.s.wrap(&err, "UpdateRequest")
	errs, warns, err := encodeFieldErrors(r.Errors, r.Warnings)
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, updateRequestSQL, r.ID, string(r.Status), t.s.at(r.UpdatedDate), errs, warns,
		r.IsFullUndone, r.UndoSupported, r.DocumentRef)
	if err := affected(res, err, "no request %d", r.ID); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(ctx, deleteHoldingsSQL, r.ID); err != nil {
		return err
	}
	return t.insertHoldings(ctx, r.ID, r.Holdings)
}

// insertHoldings links a request to each of holdings once, in one
// statement: a request names a handful of holdings.
func (t *tx) insertHoldings(ctx context.Context, id int64, holdings []string) error {
	hs := slices.Compact(slices.Sorted(slices.Values(holdings)))
	if len(hs) == 0 {
		return nil
	}
	args := []any{id}
	rows := make([]string, len(hs))
	for i, h := range hs {
		args = append(args, h)
		rows[i] = fmt.Sprintf("SELECT CAST($%d AS TEXT) AS cph", i+2)
	}
	_, err := t.tx.ExecContext(ctx, fmt.Sprintf(insertHoldingsSQL, strings.Join(rows, " UNION ALL ")), args...)
	return err
}

func scanRequest(row interface{ Scan(...any) error }) (store.Request, error) {
	var r store.Request
	var tracking sql.NullString
	var target sql.NullInt64
	var errs, warns string
	err := row.Scan(&r.ID, &r.Type, &r.Status, &r.UserName, instant{&r.RequestDate}, instant{&r.UpdatedDate},
		instant{&r.MovementDate}, &r.Species, &tracking, &r.CorrelationID, &target, &r.IsFullUndone,
		&r.UndoSupported, &r.Content, &errs, &warns, &r.DocumentRef)
	if err != nil {
		return store.Request{}, err
	}
	r.TrackingID, r.TargetID = tracking.String, target.Int64
	if len(r.Content) == 0 {
		r.Content = nil
	}
	if r.Errors, err = decodeFieldErrors(errs); err != nil {
		return store.Request{}, err
	}
	r.Warnings, err = decodeFieldErrors(warns)
	return r, err
}
