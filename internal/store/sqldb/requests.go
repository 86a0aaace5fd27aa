package sqldb

import (
	"cmp"
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
	requestColumns = requestHead + `content` + requestTail
	// listColumns are requestColumns for a listing that shows no content:
	// content is most of a row's bytes, and a page of records without it
	// need not read them.
	listColumns = requestHead + `NULL` + requestTail
	requestHead = `id, type, status, user_name, request_date, updated_date, movement_date, species,
		tracking_id, correlation_id, target_id, is_full_undone, undo_supported, `
	requestTail = `, errors, warnings, document_ref, holdings`
	requestSQL  = `SELECT ` + requestColumns + ` FROM requests WHERE id = $1`
	// insertRequestSQL does nothing, and returns no row, when the user has
	// used the tracking id before for a request of the type: the transaction stays usable (a unique
	// violation would abort it on PostgreSQL).
	insertRequestSQL = `INSERT INTO requests (type, status, user_name, request_date, updated_date, movement_date,
		species, tracking_id, correlation_id, target_id, is_full_undone, undo_supported, content, errors, warnings,
		document_ref, movement_month, holdings) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
		$17, $18)
		ON CONFLICT (user_name, type, tracking_id) WHERE tracking_id IS NOT NULL DO NOTHING`
	// insertRequestWithIDSQL is insertRequestSQL with the id given ($19),
	// for a deferred insert (deferred.go); %s is the dialect's OverrideID.
	insertRequestWithIDSQL = `INSERT INTO requests (type, status, user_name, request_date, updated_date,
		movement_date, species, tracking_id, correlation_id, target_id, is_full_undone, undo_supported, content, errors,
		warnings, document_ref, movement_month, holdings, id) %s VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
		$12, $13, $14, $15, $16, $17, $18, $19)
		ON CONFLICT (user_name, type, tracking_id) WHERE tracking_id IS NOT NULL DO NOTHING`
	updateRequestSet = `UPDATE requests SET status = $2, updated_date = $3, errors = $4, warnings = $5,
		is_full_undone = $6, undo_supported = $7, document_ref = $8, species = $10`
	updateRequestSQL = updateRequestSet + `, holdings = $9 WHERE id = $1`
	// updateRequestSameHoldingsSQL is updateRequestSQL for a request whose
	// holdings are $9 already, and changes nothing otherwise.
	updateRequestSameHoldingsSQL = updateRequestSet + ` WHERE id = $1 AND holdings = $9`
	// requestHoldingsSQL reads what UpdateRequest needs to replace a
	// request's holdings: they and what their rows copy.
	requestHoldingsSQL = `SELECT holdings, type, movement_date, movement_month FROM requests WHERE id = $1`
	// insertHoldingsSQL is completed by a row of values per holding: each
	// copies the request's type, movement_date and movement_month, for the
	// listing's month index (migrations 00004 and 00006).
	insertHoldingsSQL = `INSERT INTO request_holdings (request_id, cph, type, movement_date, movement_month) VALUES `
	// deleteHoldingSQL finds the row by its primary key (cph, request_id):
	// there is no index by request id (migration 00007).
	deleteHoldingSQL = `DELETE FROM request_holdings WHERE cph = $1 AND request_id = $2`
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
	if r, ok := t.keptRequest(id); ok {
		return r, nil
	}
	return t.s.request(ctx, t.tx, id, t.s.d.RowLock)
}

func (s *Store) request(ctx context.Context, q querier, id int64, lock string) (store.Request, error) {
	r, err := scanRequest(q.QueryRowContext(ctx, requestSQL+lock, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Request{}, notFound("no request %d", id)
	}
	return r, err
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
	hs, joined, err := rowHoldings(r.Holdings)
	if err != nil {
		return 0, err
	}
	s := t.s
	if t.tx.Deferring() {
		if id, ok := t.nextID(ctx, requestID); ok {
			key := ""
			if r.TrackingID != "" {
				key = r.UserName + "\x00" + string(r.Type) + "\x00" + r.TrackingID
				t.tx.SetKey(key) // the order of a pass with savepoints (deferred.go)
			}
			t.tx.Later(rankRequest, key, 1, fmt.Sprintf(insertRequestWithIDSQL, s.d.OverrideID), string(r.Type),
				string(r.Status), r.UserName, s.at(r.RequestDate), s.at(r.UpdatedDate), s.atOrNull(r.MovementDate),
				store.SpeciesName(r.Species), nullString(r.TrackingID), r.CorrelationID, nullInt(r.TargetID), r.IsFullUndone,
				r.UndoSupported, notNilBytes(r.Content), errs, warns, r.DocumentRef, monthOrNull(r.MovementDate),
				joined, id)
			return id, t.insertHoldings(ctx, id, hs, holdingCopies{string(r.Type), s.atOrNull(r.MovementDate), monthOrNull(r.MovementDate)})
		}
	}
	id, err = t.insertID(ctx, insertRequestSQL, string(r.Type), string(r.Status), r.UserName,
		s.at(r.RequestDate), s.at(r.UpdatedDate), s.atOrNull(r.MovementDate), store.SpeciesName(r.Species),
		nullString(r.TrackingID), r.CorrelationID, nullInt(r.TargetID), r.IsFullUndone, r.UndoSupported,
		notNilBytes(r.Content), errs, warns, r.DocumentRef, monthOrNull(r.MovementDate), joined)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, livestock.Errorf(livestock.KindConflict, "the trackingId %q was used before by this user for a %s", r.TrackingID, string(r.Type))
	}
	if err != nil {
		return 0, err
	}
	return id, t.insertHoldings(ctx, id, hs, holdingCopies{string(r.Type), s.atOrNull(r.MovementDate), monthOrNull(r.MovementDate)})
}

// UpdateRequest writes the fields of r that a request's job changes, and
// replaces its holdings when they changed.
func (t *tx) UpdateRequest(ctx context.Context, r store.Request) (err error) {
	defer t.s.wrap(&err, "UpdateRequest")
	delete(t.cache.requests, r.ID) // kept by LockRequests (lockahead.go)
	errs, warns, err := encodeFieldErrors(r.Errors, r.Warnings)
	if err != nil {
		return err
	}
	hs, joined, err := rowHoldings(r.Holdings)
	if err != nil {
		return err
	}
	args := []any{r.ID, string(r.Status), t.s.at(r.UpdatedDate), errs, warns, r.IsFullUndone, r.UndoSupported,
		r.DocumentRef, joined, store.SpeciesName(r.Species)}
	// Most jobs leave a request's holdings as they were: then one
	// statement does, where reading the old ones first took two.
	if t.tx.Deferring() {
		t.tx.Later(rankUpdateRequest, "", 1, cmp.Or(t.s.tune.UpdateRequest, updateRequestSameHoldingsSQL), args...)
		return nil
	}
	res, err := t.tx.ExecContext(ctx, updateRequestSameHoldingsSQL, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var old string
	var copies holdingCopies
	err = t.tx.QueryRowContext(ctx, requestHoldingsSQL, r.ID).Scan(&old, &copies.typ, &copies.movementDate, &copies.month)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound("no request %d", r.ID)
	} else if err != nil {
		return err
	}
	res, err = t.tx.ExecContext(ctx, updateRequestSQL, args...)
	if err := affected(res, err, "no request %d", r.ID); err != nil {
		return err
	}
	if old == joined {
		return nil
	}
	for _, cph := range strings.Fields(old) {
		if _, err := t.tx.ExecContext(ctx, deleteHoldingSQL, cph, r.ID); err != nil {
			return err
		}
	}
	return t.insertHoldings(ctx, r.ID, hs, copies)
}

// holdingSet is holdings in order, each once: as a request's row keeps
// them (space-separated) and request_holdings has them.
func holdingSet(holdings []livestock.CPH) []livestock.CPH {
	return slices.Compact(slices.SortedFunc(slices.Values(holdings), livestock.CPH.Compare))
}

// rowHoldings is holdings as a request's row keeps them: the holdingSet,
// and it joined by spaces. The zero CPH (no holding) would not read back
// as written, and is refused.
func rowHoldings(holdings []livestock.CPH) (hs []livestock.CPH, joined string, err error) {
	hs = holdingSet(holdings)
	var b strings.Builder
	for i, h := range hs {
		if h.IsZero() {
			return nil, "", livestock.Errorf(livestock.KindInvalid, "a request's holding is empty")
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(h.String())
	}
	return hs, b.String(), nil
}

// scanHoldings reads what rowHoldings joined.
func scanHoldings(joined string) ([]livestock.CPH, error) {
	if joined == "" {
		return nil, nil
	}
	hs := make([]livestock.CPH, 0, strings.Count(joined, " ")+1)
	for h := range strings.FieldsSeq(joined) {
		var c livestock.CPH
		if err := (cphCol{&c}).Scan(h); err != nil {
			return nil, err
		}
		hs = append(hs, c)
	}
	return hs, nil
}

// holdingCopies are the request's values that each of its
// request_holdings rows copies, as bound to a parameter.
type holdingCopies struct{ typ, movementDate, month any }

// insertHoldings links a request to each of hs (a holdingSet) in one
// statement: a request names a handful of holdings. The rows' values are
// bound rather than read from the request's row in the statement: an
// INSERT … SELECT joining the request cost the writer a lookup and a
// subquery a request.
func (t *tx) insertHoldings(ctx context.Context, id int64, hs []livestock.CPH, c holdingCopies) error {
	if len(hs) == 0 {
		return nil
	}
	args := []any{id, c.typ, c.movementDate, c.month}
	var q strings.Builder
	q.WriteString(insertHoldingsSQL)
	for i, h := range hs {
		args = append(args, h.String())
		if i > 0 {
			q.WriteString(", ")
		}
		fmt.Fprintf(&q, "($1, $%d, $2, $3, $4)", len(args))
	}
	if t.tx.Deferring() {
		t.tx.Later(rankHoldings, "", int64(len(hs)), q.String(), args...)
		return nil
	}
	_, err := t.tx.ExecContext(ctx, q.String(), args...)
	return err
}

func scanRequest(row interface{ Scan(...any) error }) (store.Request, error) {
	return new(requestScanner).scan(row)
}

// requestScanner reads rows of requestColumns. A listing keeps one for all
// its rows: the values Scan writes into must live on the heap, and one
// scanner a row was a quarter of a listing's allocations.
type requestScanner struct {
	r                     store.Request
	tracking              sql.NullString
	target                sql.NullInt64
	errs, warns, holdings string
	dest                  []any
}

func (sc *requestScanner) scan(row interface{ Scan(...any) error }) (store.Request, error) {
	if sc.dest == nil {
		r := &sc.r
		sc.dest = []any{&r.ID, &r.Type, &r.Status, &r.UserName, instant{&r.RequestDate}, instant{&r.UpdatedDate},
			instant{&r.MovementDate}, speciesCol{&r.Species}, &sc.tracking, &r.CorrelationID, &sc.target, &r.IsFullUndone,
			&r.UndoSupported, &r.Content, &sc.errs, &sc.warns, &r.DocumentRef, &sc.holdings}
	}
	sc.r = store.Request{}
	if err := row.Scan(sc.dest...); err != nil {
		return store.Request{}, err
	}
	r := sc.r
	var err error
	if r.Holdings, err = scanHoldings(sc.holdings); err != nil {
		return store.Request{}, err
	}
	r.TrackingID, r.TargetID = sc.tracking.String, sc.target.Int64
	if len(r.Content) == 0 {
		r.Content = nil
	}
	if r.Errors, err = decodeFieldErrors(sc.errs); err != nil {
		return store.Request{}, err
	}
	r.Warnings, err = decodeFieldErrors(sc.warns)
	return r, err
}
