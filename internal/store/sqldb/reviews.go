package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	// pendingReviewsSQL is served by movements_review (review_holding,
	// state, species, id); %s is the filter, and the page's window is
	// written in (paging).
	pendingReviewsSQL = `SELECT ` + movementColumns + ` FROM movements m
		WHERE m.review_holding = $1 AND m.state = $2 AND m.species = $3 AND m.id > $4 AND %s
		ORDER BY m.id LIMIT {limit} OFFSET {offset}`
	// requestsByIDSQL: %s is the list of ids.
	requestsByIDSQL = `SELECT ` + requestColumns + ` FROM requests WHERE id IN (%s)`
	// inTransitSQL finds tags on movement_devices_identifier; %s is the
	// list of identifiers.
	inTransitSQL = `SELECT d.identifier, d.movement_id FROM movement_devices d
		JOIN movements m ON m.id = d.movement_id
		WHERE m.state = '` + string(store.MovementPendingReview) + `' AND m.review_holding <> m.source
		AND d.identifier IN (%s)
		ORDER BY d.movement_id DESC`
	// standingSQL is a movement m that moves or holds animals: completed,
	// accepted, or awaiting its destination's review (one awaiting its
	// source's consent holds none, as for inTransitSQL).
	standingSQL = `(m.state IN ('` + string(store.MovementCompleted) + `', '` + string(store.MovementAccepted) + `')
		OR m.state = '` + string(store.MovementPendingReview) + `' AND m.review_holding <> m.source)`
	// settledAfterSQL is a movement m last made (by its transfer, a
	// correction or a review) after request $1: a movement's id is its
	// first transfer's, and an older movement corrected since to take an
	// animal holds it as a later one would.
	settledAfterSQL = `(m.request_id > $1 OR m.review_id > $1)`
	// devicesMovedAfterSQL: $1 is the request id, %s the identifiers
	// from $2, on movement_devices_identifier (a tag's history is short). A
	// tag its movement's review rejected did not move in it (an undo of
	// that review needs it where it was, which any later move may end).
	devicesMovedAfterSQL = `SELECT d.identifier, m.request_id FROM movement_devices d
		JOIN movements m ON m.id = d.movement_id
		WHERE d.identifier IN (%s) AND ` + settledAfterSQL + ` AND d.outcome <> 'rejected' AND ` + standingSQL + `
		ORDER BY d.movement_id LIMIT 1`
	// batchMovedAfterSQL, on the batch number's index from the movement
	// after request $1 (SQLite's ends in movement_id, as the table has no
	// rowid; PostgreSQL's names it): a batch number's history is as long as
	// its flock's, so only movements made after it are asked (not an older
	// one corrected since). A line its review accepted none of did not move.
	batchMovedAfterSQL = `SELECT b.batch_number, m.request_id FROM movement_batches b
		JOIN movements m ON m.id = b.movement_id
		WHERE b.batch_number = $2 AND b.movement_id > $1 AND m.source = $3
		AND (m.state <> '` + string(store.MovementAccepted) + `' OR b.accepted > 0) AND ` + standingSQL + `
		ORDER BY b.movement_id LIMIT 1`
	// arrivalsSQL asks for the expression movements_arrivals indexes.
	arrivalsSQL = `SELECT id, coalesce(arrival_date, transfer_date), species, flags, source FROM movements
		WHERE destination = $1 AND coalesce(arrival_date, transfer_date) BETWEEN $2 AND $3
		AND state IN ($4, $5)
		ORDER BY coalesce(arrival_date, transfer_date), id`
)

// PendingReviews lists the movements awaiting q.Holding's review, with
// their devices and batches, in id order. A Limit of zero or less means no
// limit.
func (s *Store) PendingReviews(ctx context.Context, q store.ReviewQuery) (list []store.Movement, err error) {
	defer s.wrap(&err, "PendingReviews")
	f := filter{s: s, cols: reviewFields, prefix: "m.", args: []any{q.Holding.String(),
		string(store.MovementPendingReview), store.SpeciesName(q.Species), q.AfterID}}
	cond, err := f.compile(q.Filter)
	if err != nil {
		return nil, err
	}
	query := paging(q.Limit, q.Offset).Replace(fmt.Sprintf(pendingReviewsSQL, cond))
	rows, err := s.r.QueryContext(ctx, query, f.args...)
	if err != nil {
		return nil, err
	}
	if list, err = scanMovements(rows); err != nil {
		return nil, err
	}
	return list, s.fillMovements(ctx, s.r, list)
}

// RequestsByID returns the requests with these ids, by id.
func (s *Store) RequestsByID(ctx context.Context, ids []int64) (found map[int64]store.Request, err error) {
	defer s.wrap(&err, "RequestsByID")
	seen := make(map[int64]bool, len(ids))
	args := make([]any, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	found = make(map[int64]store.Request, len(ids))
	var sc requestScanner
	err = s.eachOf(ctx, s.r, requestsByIDSQL, args, func(rows *sql.Rows) error {
		r, err := sc.scan(rows)
		if err == nil {
			found[r.ID] = r
		}
		return err
	})
	return found, err
}

// InTransit maps each of identifiers that is on a movement awaiting the
// review of its destination to that movement (the earliest, should there
// be several).
func (t *tx) InTransit(ctx context.Context, identifiers []string) (found map[string]int64, err error) {
	defer t.s.wrap(&err, "InTransit")
	found = make(map[string]int64)
	ask := t.keptInTransit(distinct(identifiers), found)
	err = t.s.eachOf(ctx, t.tx, inTransitSQL, ask, func(rows *sql.Rows) error {
		var identifier string
		var id int64
		if err := rows.Scan(&identifier, &id); err != nil {
			return err
		}
		found[identifier] = id // descending: the earliest is written last
		return nil
	})
	if err == nil {
		t.keepInTransit(ask, found)
	}
	return found, err
}

// MovedAfter finds a later movement that moves or holds an animal of
// movement id's (store.Tx).
func (t *tx) MovedAfter(ctx context.Context, id int64, identifiers []string, from livestock.CPH, batchNumbers []string) (what string, requestID int64, found bool, err error) {
	defer t.s.wrap(&err, "MovedAfter")
	for part := range slices.Chunk(distinct(identifiers), t.s.d.MaxParams-1) {
		args := append([]any{id}, part...)
		err := t.tx.QueryRowContext(ctx, fmt.Sprintf(devicesMovedAfterSQL, marks(2, len(part))), args...).Scan(&what, &requestID)
		if err == nil {
			return what, requestID, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", 0, false, err
		}
	}
	for _, b := range distinct(batchNumbers) {
		err := t.tx.QueryRowContext(ctx, batchMovedAfterSQL, id, b, from.String()).Scan(&what, &requestID)
		if err == nil {
			return what, requestID, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", 0, false, err
		}
	}
	return "", 0, false, nil
}

// ArrivalsOn lists the completed and accepted movements onto cph whose
// arrival date is in [from, to], taken as dates, in date order. A movement
// awaiting review has brought nothing yet: until the review its animals
// stay where they were, and its reporter cannot put another keeper's
// holding under standstill.
func (t *tx) ArrivalsOn(ctx context.Context, cph livestock.CPH, from, to time.Time) (list []store.Arrival, err error) {
	defer t.s.wrap(&err, "ArrivalsOn")
	k := arrivalsKey{cph, date(from), date(to)}
	if list, ok := t.keptArrivals(k); ok {
		return list, nil
	}
	rows, err := t.tx.QueryContext(ctx, arrivalsSQL, cph.String(), date(from), date(to),
		string(store.MovementCompleted), string(store.MovementAccepted))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var a store.Arrival
		var flags string
		if err := rows.Scan(&a.MovementID, day{&a.Date}, speciesCol{&a.Species}, &flags, cphCol{&a.Source}); err != nil {
			return nil, err
		}
		if a.Flags, err = decodeStrings(flags); err != nil {
			return nil, err
		}
		list = append(list, a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	t.keepArrivals(k, list)
	return list, nil
}
