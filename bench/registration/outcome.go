package main

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"
)

// outcome is what became of the async registrations, as the registrations
// table has it once no request is Pending.
type outcome struct {
	Completed, Failed int
	Stored            []time.Duration // updated_date − request_date of each Completed, sorted
	FromAnswer        []time.Duration // updated_date − the client's receipt of its 202, sorted
	FailedBy          map[string]int  // the errors of the Failed, counted
	MostPending       int             // the most Pending seen at once (sampled)
	Drain             time.Duration   // from the end of the load until none was Pending
}

const pendingSQL = `SELECT count(*) FROM registrations WHERE async AND status = 'Pending'`

// drain waits until no async registration is Pending, looking every 20ms.
func drain(ctx context.Context, db *sql.DB, limit time.Duration) error {
	for deadline := time.Now().Add(limit); ; {
		var n int
		if err := db.QueryRowContext(ctx, pendingSQL).Scan(&n); err != nil {
			return fmt.Errorf("count Pending: %w", err)
		}
		if n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d registrations still Pending after %s", n, limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// read reads every async registration's outcome; answered are the 202s'
// arrival times by request id.
func read(ctx context.Context, db *sql.DB, answered map[string]time.Time) (outcome, error) {
	o := outcome{FailedBy: map[string]int{}}
	rows, err := db.QueryContext(ctx, `SELECT id, status, request_date, updated_date, errors FROM registrations WHERE async`)
	if err != nil {
		return o, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, status, errs string
		var requested, updated instant
		if err := rows.Scan(&id, &status, &requested, &updated, &errs); err != nil {
			return o, err
		}
		switch status {
		case "Success":
			o.Completed++
			o.Stored = append(o.Stored, updated.Sub(requested.Time))
			if at, ok := answered[id]; ok {
				o.FromAnswer = append(o.FromAnswer, updated.Sub(at))
			}
		case "Fail":
			o.Failed++
			o.FailedBy[fmt.Sprintf("%.120s", errs)]++
		}
	}
	slices.Sort(o.Stored)
	slices.Sort(o.FromAnswer)
	return o, rows.Err()
}

// instant scans an instant as either store keeps it: TEXT in the fixed
// format on SQLite, timestamptz on PostgreSQL.
type instant struct{ time.Time }

func (x *instant) Scan(src any) (err error) {
	switch v := src.(type) {
	case time.Time:
		x.Time = v
	case string:
		x.Time, err = time.Parse("2006-01-02T15:04:05.000000Z", v)
	case []byte:
		x.Time, err = time.Parse("2006-01-02T15:04:05.000000Z", string(v))
	default:
		err = fmt.Errorf("instant: cannot scan %T", src)
	}
	return err
}
