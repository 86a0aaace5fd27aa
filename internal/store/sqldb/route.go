package sqldb

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/store"
)

// routeSQL is served by movements_route (source, destination, transfer_date).
const routeSQL = `SELECT ` + movementColumns + ` FROM movements
	WHERE source = $1 AND destination = $2 AND transfer_date = $3 ORDER BY id`

// MovementsOnRoute lists the movements from source to destination on the
// transfer date on, in every state, with their devices and batches, in id
// order.
func (t *tx) MovementsOnRoute(ctx context.Context, source, destination string, on time.Time) (list []store.Movement, err error) {
	defer t.s.wrap(&err, "MovementsOnRoute")
	rows, err := t.tx.QueryContext(ctx, routeSQL, source, destination, date(on))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		m, err := scanMovement(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return list, t.s.fillMovements(ctx, t.tx, list)
}
