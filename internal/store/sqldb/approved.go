package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// An approved movement is one end's record of a movement, so the listing
// reads each movement up to twice: a Departure branch and a Destination
// branch, each a plain read of movements (on movements_source or
// movements_destination for a keeper), joined, sorted (by key, or by the
// caller's $orderby with keyset paging, as requestorder.go) and paged.
// $1 is the key to start after; the filter's and the order's parameters
// come next, then the keeper's holdings. The page's window is written in
// (paging).
const (
	approvedSQL = `SELECT a.* FROM (%s UNION ALL %s) a
		WHERE a.k > $1 AND %s AND %s ORDER BY %s LIMIT {limit} OFFSET {offset}`
	approvedCountSQL = `SELECT count(*) FROM (%s UNION ALL %s) a WHERE %s`
	// approvedDepartureSQL: a movement its departure keeper reported,
	// whatever its review decided, until it is undone; or one its
	// destination keeper reported that the departure keeper accepted on
	// review (the live recordedBy: the end that "recorded the movement, or
	// reviewed and accepted" it).
	approvedDepartureSQL = `SELECT ` + movementColumns + `, 'Departure' AS side, id * 2 AS k, %s AS species_id,
		` + movementInstantSQL + ` AS transfer_at, ` + arrivalInstantSQL + ` AS arrival_at
		FROM movements m WHERE (reported_by = 'Departure' AND state <> 'Undone' OR reported_by = 'Destination' AND state = 'Accepted')%s`
	// approvedDestinationSQL: a movement its animals reached: one its
	// destination keeper reported that needed no review, or one accepted,
	// in whole or in part, on review (by the destination, or by the source
	// whose consent a destination's report awaited). A report still
	// awaiting the source's consent, or refused it, brought nothing.
	approvedDestinationSQL = `SELECT ` + movementColumns + `, 'Destination' AS side, id * 2 + 1 AS k, %s AS species_id,
		` + movementInstantSQL + ` AS transfer_at, ` + arrivalInstantSQL + ` AS arrival_at
		FROM movements m WHERE (reported_by = 'Destination' AND state = 'Completed' OR state = 'Accepted')%s`
)

// approvedFields are the fields of store.ApprovedFilterFields, as columns
// of the listing's rows.
var approvedFields = map[string]column{
	"id":                 {"id", colInt, alwaysSet},
	"transferDate":       {"transfer_at", colInstant, alwaysSet},
	"speciesId":          {"species_id", colInt, nullNone},
	"recordedBy":         {"side", colText, alwaysSet},
	"sourceHolding":      {"source", colText, alwaysSet},
	"destinationHolding": {"destination", colText, alwaysSet},
}

// speciesIDSQL is the live speciesId of a movement's species, from
// livestock's own numbering: constants only, never a caller's text. It is
// a bigint, as $filter's integers are: compared with PostgreSQL's integer,
// a value past 2^31 could not be bound.
var speciesIDSQL = func() string {
	var b strings.Builder
	b.WriteString("CAST(CASE species")
	for _, name := range livestock.MovementSpeciesNames() {
		sp, _ := livestock.ParseMovementSpecies(name)
		fmt.Fprintf(&b, " WHEN '%s' THEN %d", name, sp.ID())
	}
	b.WriteString(" END AS BIGINT)")
	return b.String()
}()

// ApprovedMovements lists the approved movements q selects, with their
// devices and batches, in key order or q's Order.
func (s *Store) ApprovedMovements(ctx context.Context, q store.ApprovedQuery) (list []store.ApprovedMovement, err error) {
	defer s.wrap(&err, "ApprovedMovements")
	f := filter{s: s, cols: approvedFields, prefix: "a.", args: []any{q.AfterKey}}
	cond, err := f.compile(q.Filter) // compiled first, so a bad filter is reported to every caller
	if err != nil {
		return nil, err
	}
	after, by := sqlTrue, "a.k"
	if q.Order != nil {
		if after, by, err = f.order(q.Order, q.After); err != nil {
			return nil, err
		}
	}
	departure, destination, ok := f.approvedBranches(q)
	if !ok {
		return nil, nil
	}
	query := paging(q.Limit, q.Offset).Replace(fmt.Sprintf(approvedSQL, departure, destination, cond, after, by))
	rows, err := s.r.QueryContext(ctx, query, f.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var a store.ApprovedMovement
		var key int64
		var speciesID sql.NullInt64
		if a.Movement, err = scanMovement(withExtra{rows, []any{&a.RecordedBy, &key, &speciesID, instant{&a.TransferAt}, instant{&a.ArrivalAt}}}); err != nil {
			return nil, err
		}
		list = append(list, a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return list, s.fillApproved(ctx, list)
}

// CountApproved is how many records q selects, paging aside.
func (s *Store) CountApproved(ctx context.Context, q store.ApprovedQuery) (n int64, err error) {
	defer s.wrap(&err, "CountApproved")
	f := filter{s: s, cols: approvedFields, prefix: "a."}
	cond, err := f.compile(q.Filter)
	if err != nil {
		return 0, err
	}
	departure, destination, ok := f.approvedBranches(q)
	if !ok {
		return 0, nil
	}
	err = s.r.QueryRowContext(ctx, fmt.Sprintf(approvedCountSQL, departure, destination, cond), f.args...).Scan(&n)
	return n, err
}

// approvedBranches are the listing's two branches for the records q may
// see, binding a keeper's holdings, or false when q can see none.
func (f *filter) approvedBranches(q store.ApprovedQuery) (departure, destination string, ok bool) {
	if !q.All {
		if len(q.Holdings) == 0 {
			return "", "", false
		}
		in := marks(len(f.args)+1, len(q.Holdings))
		for _, h := range q.Holdings {
			f.args = append(f.args, h.String())
		}
		departure, destination = " AND source IN ("+in+")", " AND destination IN ("+in+")"
	}
	return fmt.Sprintf(approvedDepartureSQL, speciesIDSQL, departure), fmt.Sprintf(approvedDestinationSQL, speciesIDSQL, destination), true
}

// ApprovedMovement is the one record the listing would show for id and
// side.
func (s *Store) ApprovedMovement(ctx context.Context, id int64, side store.Side) (store.ApprovedMovement, error) {
	list, err := s.ApprovedMovements(ctx, store.ApprovedQuery{All: true, Filter: &odata.And{
		Left:  &odata.Comparison{Field: "id", Op: odata.Eq, Value: id},
		Right: &odata.Comparison{Field: "recordedBy", Op: odata.Eq, Value: string(side)},
	}})
	if err != nil {
		return store.ApprovedMovement{}, err
	}
	if len(list) == 0 {
		return store.ApprovedMovement{}, notFound("no approved movement (%d,%s)", id, side)
	}
	return list[0], nil
}

// fillApproved reads the devices and batches of the listed movements,
// once for a movement listed twice (both ends' records).
func (s *Store) fillApproved(ctx context.Context, list []store.ApprovedMovement) error {
	var unique []store.Movement
	at := map[int64]int{}
	for _, a := range list {
		if _, ok := at[a.ID]; !ok {
			at[a.ID] = len(unique)
			unique = append(unique, a.Movement)
		}
	}
	if len(unique) == 0 {
		return nil
	}
	if err := s.fillMovements(ctx, s.r, unique); err != nil {
		return err
	}
	for i := range list {
		m := unique[at[list[i].ID]]
		list[i].Devices, list[i].Batches = m.Devices, m.Batches
	}
	return nil
}

// withExtra scans a row of movementColumns followed by more columns.
type withExtra struct {
	rows  *sql.Rows
	extra []any
}

func (w withExtra) Scan(dest ...any) error { return w.rows.Scan(append(dest, w.extra...)...) }
