package sqldb

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// routeSQL is served by movements_route (source, destination, transfer_date).
const routeSQL = `SELECT ` + movementColumns + ` FROM movements
	WHERE source = $1 AND destination = $2 AND transfer_date = $3 AND reported_by = $4
	AND state IN ($5, $6, $7) ORDER BY id`

// MovementsOnRoute lists the movements from source to destination on the
// transfer date on that side by reported and that are awaiting review,
// completed or accepted, with their devices and batches, in id order.
func (t *tx) MovementsOnRoute(ctx context.Context, source, destination livestock.CPH, on time.Time, by store.Side) (list []store.Movement, err error) {
	defer t.s.wrap(&err, "MovementsOnRoute")
	k := routeKey{source, destination, date(on), by}
	if list, ok := t.keptRoute(k); ok {
		return list, nil
	}
	rows, err := t.tx.QueryContext(ctx, routeSQL, source.String(), destination.String(), date(on), string(by), string(store.MovementPendingReview),
		string(store.MovementCompleted), string(store.MovementAccepted))
	if err != nil {
		return nil, err
	}
	if list, err = scanMovements(rows); err != nil {
		return nil, err
	}
	if err := t.s.fillMovements(ctx, t.tx, list); err != nil {
		return nil, err
	}
	t.keepRoute(k, list)
	return list, nil
}
