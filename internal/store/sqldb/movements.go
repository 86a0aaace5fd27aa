package sqldb

import (
	"context"
	"database/sql"
	"errors"

	"github.com/drover-registry/drover/internal/store"
)

const (
	movementColumns = `id, request_id, user_name, species, source, destination, review_holding, transfer_date,
		arrival_date, state, animal_count, flags, standstill, review_id, reported_by, duplicates`
	movementSQL       = `SELECT ` + movementColumns + ` FROM movements WHERE id = $1`
	insertMovementSQL = `INSERT INTO movements (request_id, user_name, species, source, destination, review_holding,
		transfer_date, arrival_date, state, animal_count, flags, standstill, review_id, reported_by, duplicates, id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`
	updateMovementSQL = `UPDATE movements SET request_id = $1, user_name = $2, species = $3, source = $4,
		destination = $5, review_holding = $6, transfer_date = $7, arrival_date = $8, state = $9,
		animal_count = $10, flags = $11, standstill = $12, review_id = $13, reported_by = $14, duplicates = $15 WHERE id = $16`
)

// Movement returns one movement with its devices and batches.
func (s *Store) Movement(ctx context.Context, id int64) (m store.Movement, err error) {
	defer s.wrap(&err, "Movement")
	return s.movement(ctx, s.r, id, "")
}

// LockMovement returns one movement, held until the transaction ends.
func (t *tx) LockMovement(ctx context.Context, id int64) (m store.Movement, err error) {
	defer t.s.wrap(&err, "LockMovement")
	return t.s.movement(ctx, t.tx, id, t.s.d.RowLock)
}

func (s *Store) movement(ctx context.Context, q querier, id int64, lock string) (store.Movement, error) {
	m, err := scanMovement(q.QueryRowContext(ctx, movementSQL+lock, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Movement{}, notFound("no movement %d", id)
	}
	if err != nil {
		return store.Movement{}, err
	}
	list := []store.Movement{m}
	if err := s.fillMovements(ctx, q, list); err != nil {
		return store.Movement{}, err
	}
	return list[0], nil
}

// InsertMovement stores m with its devices and batches.
func (t *tx) InsertMovement(ctx context.Context, m store.Movement) (err error) {
	defer t.s.wrap(&err, "InsertMovement")
	t.movementsWritten()
	args, err := movementArgs(m)
	if err != nil {
		return err
	}
	if t.tx.Deferring() {
		t.tx.Later(rankOther, "", 1, insertMovementSQL, args...)
	} else if _, err := t.tx.ExecContext(ctx, insertMovementSQL, args...); err != nil {
		return err
	}
	return t.insertParts(ctx, m)
}

// UpdateMovement writes every field of m and replaces its devices and
// batches.
func (t *tx) UpdateMovement(ctx context.Context, m store.Movement) (err error) {
	defer t.s.wrap(&err, "UpdateMovement")
	t.movementsWritten()
	args, err := movementArgs(m)
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, updateMovementSQL, args...)
	if err := affected(res, err, "no movement %d", m.ID); err != nil {
		return err
	}
	if err := t.deleteParts(ctx, m.ID); err != nil {
		return err
	}
	return t.insertParts(ctx, m)
}

// movementArgs are the parameters of insertMovementSQL and
// updateMovementSQL: every field, the id last. A zero RequestID is taken
// as the movement's own id (the transfer that made it).
func movementArgs(m store.Movement) ([]any, error) {
	if m.RequestID == 0 {
		m.RequestID = m.ID
	}
	flags, err := encodeStrings(m.Flags)
	if err != nil {
		return nil, err
	}
	dups, err := encodeInts(m.Duplicates)
	if err != nil {
		return nil, err
	}
	var arrival any
	if !m.ArrivalDate.IsZero() {
		arrival = date(m.ArrivalDate)
	}
	return []any{m.RequestID, m.UserName, store.SpeciesName(m.Species), m.Source.String(), m.Destination.String(), nullString(m.ReviewHolding.String()),
		date(m.TransferDate), arrival, string(m.State), m.AnimalCount, flags, m.Standstill, nullInt(m.ReviewID),
		string(m.ReportedBy), dups, m.ID}, nil
}

// scanMovements reads every row of rows as a movement, and closes rows.
func scanMovements(rows *sql.Rows) (list []store.Movement, err error) {
	defer rows.Close()
	for rows.Next() {
		m, err := scanMovement(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, m)
	}
	return list, rows.Err()
}

func scanMovement(row interface{ Scan(...any) error }) (store.Movement, error) {
	var m store.Movement
	var reviewID sql.NullInt64
	var flags, dups string
	err := row.Scan(&m.ID, &m.RequestID, &m.UserName, speciesCol{&m.Species}, cphCol{&m.Source}, cphCol{&m.Destination}, cphCol{&m.ReviewHolding},
		day{&m.TransferDate}, day{&m.ArrivalDate}, &m.State, &m.AnimalCount, &flags, &m.Standstill, &reviewID, &m.ReportedBy, &dups)
	if err != nil {
		return store.Movement{}, err
	}
	m.ReviewID = reviewID.Int64
	if m.Duplicates, err = decodeInts(dups); err != nil {
		return store.Movement{}, err
	}
	m.Flags, err = decodeStrings(flags)
	return m, err
}
