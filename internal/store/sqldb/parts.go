package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/drover-registry/drover/internal/store"
)

// A movement's devices and batches keep the order they were given in.
const (
	insertDevicesSQL = `INSERT INTO movement_devices (movement_id, position, identifier, rfid, prior_cph,
		prior_on_since, outcome)`
	insertBatchesSQL = `INSERT INTO movement_batches (movement_id, position, batch_number, animal_total, accepted,
		batch_movement_id)`
	deleteDevicesSQL = `DELETE FROM movement_devices WHERE movement_id = $1`
	deleteBatchesSQL = `DELETE FROM movement_batches WHERE movement_id = $1`
	devicesOfSQL     = `SELECT movement_id, identifier, rfid, prior_cph, prior_on_since, outcome
		FROM movement_devices WHERE movement_id IN (%s) ORDER BY movement_id, position`
	batchesOfSQL = `SELECT movement_id, batch_number, animal_total, accepted, batch_movement_id
		FROM movement_batches WHERE movement_id IN (%s) ORDER BY movement_id, position`
)

func (t *tx) insertParts(ctx context.Context, m store.Movement) error {
	var w querier = t.tx
	if t.tx.Deferring() {
		w = laterWriter{t.tx}
	}
	err := t.s.insertMany(ctx, w, insertDevicesSQL, "", 7, len(m.Devices), func(i int) []any {
		d := m.Devices[i]
		var since any
		if !d.PriorOnSince.IsZero() {
			since = date(d.PriorOnSince)
		}
		return []any{m.ID, i, d.Identifier.String(), d.RFID.String(), d.PriorCPH.String(), since, d.Outcome}
	})
	if err != nil {
		return err
	}
	// A line keeps its id through UpdateMovement; a new line gets one.
	ids := make([]int64, len(m.Batches))
	for i, b := range m.Batches {
		ids[i] = b.ID
		if ids[i] == 0 {
			if err := t.tx.QueryRowContext(ctx, t.s.d.NextBatchID).Scan(&ids[i]); err != nil {
				return err
			}
		}
	}
	return t.s.insertMany(ctx, w, insertBatchesSQL, "", 6, len(m.Batches), func(i int) []any {
		b := m.Batches[i]
		return []any{m.ID, i, b.BatchNumber.String(), b.AnimalTotal, b.Accepted, ids[i]}
	})
}

func (t *tx) deleteParts(ctx context.Context, id int64) error {
	for _, stmt := range []string{deleteDevicesSQL, deleteBatchesSQL} {
		if _, err := t.tx.ExecContext(ctx, stmt, id); err != nil {
			return err
		}
	}
	return nil
}

// fillMovements sets the Devices and Batches of each movement of list,
// with one query of each for every MaxParams movements.
func (s *Store) fillMovements(ctx context.Context, q querier, list []store.Movement) error {
	at := make(map[int64]*store.Movement, len(list))
	ids := make([]any, len(list))
	for i := range list {
		at[list[i].ID], ids[i] = &list[i], list[i].ID
	}
	err := s.eachOf(ctx, q, devicesOfSQL, ids, func(rows *sql.Rows) error {
		var (
			id  int64
			tag string
			d   store.MovementDevice
		)
		if err := rows.Scan(&id, &tag, rfidCol{&d.RFID}, cphCol{&d.PriorCPH}, day{&d.PriorOnSince}, &d.Outcome); err != nil {
			return err
		}
		var err error
		m := at[id]
		if d.Identifier, err = storedTag(m.Species, tag); err != nil {
			return fmt.Errorf("movement %d: %w", id, err)
		}
		m.Devices = append(m.Devices, d)
		return nil
	})
	if err != nil {
		return err
	}
	return s.eachOf(ctx, q, batchesOfSQL, ids, func(rows *sql.Rows) error {
		var id int64
		var b store.MovementBatch
		err := rows.Scan(&id, batchCol{&b.BatchNumber}, &b.AnimalTotal, &b.Accepted, &b.ID)
		if err == nil {
			at[id].Batches = append(at[id].Batches, b)
		}
		return err
	})
}

// planEachTime puts Tuning.PlanEachTime before args, if it has one.
func (s *Store) planEachTime(args []any) []any {
	if s.tune.PlanEachTime == nil {
		return args
	}
	return append([]any{s.tune.PlanEachTime}, args...)
}

// eachOf runs query, whose %s is completed by a list of parameters, once
// for every MaxParams of args, and calls scan for each row.
func (s *Store) eachOf(ctx context.Context, q querier, query string, args []any, scan func(*sql.Rows) error) error {
	for part := range slices.Chunk(args, s.d.MaxParams) {
		rows, err := q.QueryContext(ctx, fmt.Sprintf(query, marks(1, len(part))), s.planEachTime(part)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := scan(rows); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}
