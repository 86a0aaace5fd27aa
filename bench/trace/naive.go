package main

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"time"
)

// naiveSQL reads every standing movement that left in the window: what a
// registry without tracing's indexes would scan for each trace, whose cost
// grows with the registry rather than with what the trace reaches.
const naiveSQL = `SELECT source, destination, transfer_date, coalesce(arrival_date, transfer_date) FROM movements
	WHERE transfer_date >= $1 AND transfer_date <= $2 AND state IN ('PendingReview', 'Completed', 'Accepted')`

type edge struct {
	from, to      string
	leave, arrive time.Time
}

// naiveTrace is the baseline: the window's movements read whole, then the
// same time-respecting search in memory, both directions. It returns the
// holdings reached and the movements read.
func naiveTrace(ctx context.Context, db *sql.DB, holding string, from, to time.Time, hops int) (int, int, error) {
	rows, err := db.QueryContext(ctx, naiveSQL, from.Format(time.DateOnly), to.Format(time.DateOnly))
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	var edges []edge
	for rows.Next() {
		var e edge
		var leave, arrive any
		if err := rows.Scan(&e.from, &e.to, &leave, &arrive); err != nil {
			return 0, 0, err
		}
		if e.leave, err = asDay(leave); err != nil {
			return 0, 0, err
		}
		if e.arrive, err = asDay(arrive); err != nil {
			return 0, 0, err
		}
		edges = append(edges, e)
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	// Each pass extends paths by one movement, reading the days the pass
	// before it left, so that a path never has more than hops movements.
	reached := map[string]bool{}
	fwd := map[string]time.Time{holding: from}
	back := map[string]time.Time{holding: to}
	for range hops {
		nextFwd, nextBack := maps.Clone(fwd), maps.Clone(back)
		for _, e := range edges {
			if d, ok := fwd[e.from]; ok && !e.leave.Before(d) {
				if cur, ok := nextFwd[e.to]; !ok || e.arrive.Before(cur) {
					nextFwd[e.to], reached["f"+e.to] = e.arrive, true
				}
			}
			if d, ok := back[e.to]; ok && !e.arrive.After(d) && !e.arrive.Before(from) {
				if cur, ok := nextBack[e.from]; !ok || e.leave.After(cur) {
					nextBack[e.from], reached["b"+e.from] = e.leave, true
				}
			}
		}
		fwd, back = nextFwd, nextBack
	}
	return len(reached), len(edges), nil
}

func asDay(v any) (time.Time, error) {
	switch v := v.(type) {
	case time.Time:
		return v, nil
	case string:
		return time.Parse(time.DateOnly, v[:min(len(v), 10)])
	case []byte:
		return time.Parse(time.DateOnly, string(v[:min(len(v), 10)]))
	}
	return time.Time{}, fmt.Errorf("a date of type %T", v)
}
