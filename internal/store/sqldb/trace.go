package sqldb

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Outbreak tracing's reads (store.TraceStore). The window reads take the
// holdings as a list at %s, after the two dates, and run on the covering
// indexes of migrations 00020 and 00024: movements_trace_from (source, transfer_date)
// and movements_trace_to (destination, the arrival expression), so that
// each holding costs one index range and no row of the table is read. The
// SQL is the same on both dialects; the index definitions differ
// (PostgreSQL's INCLUDE, SQLite's longer key).
const (
	// standing is the states a movement counts in for tracing.
	standing       = `('PendingReview', 'Completed', 'Accepted')`
	traceColumns   = `id, request_id, species, source, destination, transfer_date, arrival_date, state, animal_count, review_id`
	movementsFromS = `SELECT ` + traceColumns + ` FROM movements
		WHERE source IN (%s) AND transfer_date >= $1 AND transfer_date <= $2 AND state IN ` + standing
	movementsToSQL = `SELECT ` + traceColumns + ` FROM movements
		WHERE destination IN (%s) AND coalesce(arrival_date, transfer_date) >= $1
		AND coalesce(arrival_date, transfer_date) <= $2 AND state IN ` + standing
	// holdingNamedSQL stops at the first standing movement of each index.
	holdingNamedSQL = `SELECT CASE WHEN EXISTS (SELECT 1 FROM movements WHERE source = $1 AND state IN ` + standing + `)
		OR EXISTS (SELECT 1 FROM movements WHERE destination = $1 AND state IN ` + standing + `) THEN 1 ELSE 0 END`
	animalMovementsSQL = `SELECT ` + movementColumns + ` FROM movements
		WHERE id IN (SELECT movement_id FROM movement_devices WHERE identifier IN (%s))`
	batchMovementsSQL = `SELECT ` + movementColumns + ` FROM movements
		WHERE id IN (SELECT movement_id FROM movement_batches WHERE batch_number = $1) ORDER BY id`
	// traceAnimalColumns leave out the registration record, which tracing
	// never shows and a market's stock would read by the thousand.
	traceAnimalColumns = `identifier, species, sex, birth_date, cph, on_since, state, death_date`
	animalsByIDSQL     = `SELECT ` + traceAnimalColumns + ` FROM animals WHERE identifier IN (%s)`
	animalsOnSQL       = `SELECT ` + traceAnimalColumns + ` FROM animals WHERE cph = $1 ORDER BY identifier`
	// The balance's rows (in by the end of the day, out before it: the
	// animals there at some time that day, as a register lists them): the
	// accepted animals of batch lines by species,
	// then, one row a movement, the deer known by freeze brand alone that
	// no tag or line names (store.Movement.Unnamed), which go with the
	// movement and count as its batch animals do.
	batchesInSQL = `SELECT m.species, coalesce(sum(b.accepted), 0) FROM movements m
		JOIN movement_batches b ON b.movement_id = m.id
		WHERE m.destination = $1 AND coalesce(m.arrival_date, m.transfer_date) <= $2
		AND m.state IN ('Completed', 'Accepted') GROUP BY m.species
		UNION ALL ` + unnamedSQL + ` WHERE m.destination = $1 AND coalesce(m.arrival_date, m.transfer_date) <= $2
		AND m.state IN ('Completed', 'Accepted') AND m.species = 'Deer') u WHERE u.n > 0`
	batchesOutSQL = `SELECT m.species, coalesce(sum(b.accepted), 0) FROM movements m
		JOIN movement_batches b ON b.movement_id = m.id
		WHERE m.source = $1 AND m.transfer_date < $2
		AND m.state IN ('Completed', 'Accepted') GROUP BY m.species
		UNION ALL ` + unnamedSQL + ` WHERE m.source = $1 AND m.transfer_date < $2
		AND m.state IN ('Completed', 'Accepted') AND m.species = 'Deer') u WHERE u.n > 0`
	unnamedSQL = `SELECT u.species, u.n FROM (SELECT m.species AS species, m.animal_count
		- (SELECT count(*) FROM movement_devices d WHERE d.movement_id = m.id)
		- (SELECT coalesce(sum(b.animal_total), 0) FROM movement_batches b WHERE b.movement_id = m.id) AS n
		FROM movements m`
)

// MovementsFrom lists the standing movements leaving holdings in [from, to].
func (s *Store) MovementsFrom(ctx context.Context, holdings []livestock.CPH, from, to time.Time) (list []store.Movement, err error) {
	defer s.wrap(&err, "MovementsFrom")
	return s.window(ctx, movementsFromS, holdings, from, to, func(m store.Movement) time.Time { return m.TransferDate })
}

// MovementsTo lists the standing movements reaching holdings in [from, to].
func (s *Store) MovementsTo(ctx context.Context, holdings []livestock.CPH, from, to time.Time) (list []store.Movement, err error) {
	defer s.wrap(&err, "MovementsTo")
	return s.window(ctx, movementsToSQL, holdings, from, to, arrivalOf)
}

// HoldingNamed reports whether a standing movement leaves or reaches cph.
func (s *Store) HoldingNamed(ctx context.Context, cph livestock.CPH) (named bool, err error) {
	defer s.wrap(&err, "HoldingNamed")
	var n int
	err = s.r.QueryRowContext(ctx, holdingNamedSQL, cph.String()).Scan(&n)
	return n == 1, err
}

func arrivalOf(m store.Movement) time.Time {
	if m.ArrivalDate.IsZero() {
		return m.TransferDate
	}
	return m.ArrivalDate
}

// window runs a window read for every MaxParams holdings and returns the
// rows by the date key gives, then id.
func (s *Store) window(ctx context.Context, query string, holdings []livestock.CPH, from, to time.Time,
	key func(store.Movement) time.Time) ([]store.Movement, error) {
	var list []store.Movement
	for part := range slices.Chunk(distinctHoldings(holdings), s.d.MaxParams-2) {
		args := s.planEachTime(append([]any{date(from), date(to)}, part...))
		rows, err := s.r.QueryContext(ctx, fmt.Sprintf(query, marks(3, len(part))), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var m store.Movement
			var reviewID sql.NullInt64
			if err := rows.Scan(&m.ID, &m.RequestID, speciesCol{&m.Species}, cphCol{&m.Source}, cphCol{&m.Destination}, day{&m.TransferDate},
				day{&m.ArrivalDate}, &m.State, &m.AnimalCount, &reviewID); err != nil {
				rows.Close()
				return nil, err
			}
			m.ReviewID = reviewID.Int64
			list = append(list, m)
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(list, func(a, b store.Movement) int {
		if c := key(a).Compare(key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return list, nil
}

// FillMovements sets the devices and batches of each movement of list.
func (s *Store) FillMovements(ctx context.Context, list []store.Movement) (err error) {
	defer s.wrap(&err, "FillMovements")
	if len(list) == 0 {
		return nil
	}
	for i := range list {
		list[i].Devices, list[i].Batches = nil, nil
	}
	return s.fillMovements(ctx, s.r, list)
}

// AnimalMovements lists every movement naming one of identifiers, by id.
func (s *Store) AnimalMovements(ctx context.Context, identifiers []string) (list []store.Movement, err error) {
	defer s.wrap(&err, "AnimalMovements")
	seen := map[int64]bool{}
	err = s.eachOf(ctx, s.r, animalMovementsSQL, distinct(identifiers), func(rows *sql.Rows) error {
		m, err := scanMovement(rows)
		if err == nil && !seen[m.ID] {
			seen[m.ID] = true
			list = append(list, m)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(list, func(a, b store.Movement) int { return cmp.Compare(a.ID, b.ID) })
	return list, s.fillMovements(ctx, s.r, list)
}

// BatchMovements lists every movement with a batch line numbered number.
func (s *Store) BatchMovements(ctx context.Context, number string) (list []store.Movement, err error) {
	defer s.wrap(&err, "BatchMovements")
	rows, err := s.r.QueryContext(ctx, batchMovementsSQL, number)
	if err != nil {
		return nil, err
	}
	if list, err = scanMovements(rows); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, nil
	}
	return list, s.fillMovements(ctx, s.r, list)
}
