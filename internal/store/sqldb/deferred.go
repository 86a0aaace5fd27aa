package sqldb

import (
	"context"
	"database/sql"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// Deferred writes. On PostgreSQL every statement of a group is a round
// trip, and a committer runs them one after another: a group of 64
// submissions would make 256 of them (request, holdings, job, reply),
// where a naive server's one INSERT a request runs on four connections at
// once. So in a group's optimistic pass, on a database whose Tuning can
// send several statements at once (Tuning.ExecBatch), the writes whose
// outcome a caller can predict are not sent when made (Tx.Later in
// package groupcommit): they go together, in one round trip, before the
// next read or before the commit.
//
// Each such write says how many rows it must change. One that changes
// another number (a trackingId used before, a reply already kept, a row
// gone) or fails makes the pass give up: it is rolled back and the group
// runs again with a savepoint around each fn, writing at once, where each
// write's own check answers its caller as it always has.

// Ranks of deferred writes. Two groups that insert the same trackingIds
// (or correlation ids) in opposite orders wait on each other's unique
// index entries until PostgreSQL fails one of them as deadlocked, after a
// second. Sent in one order by every group, they queue instead; a pass
// with savepoints runs its calls in the order of their requests' keys
// (groupcommit's Tx.SetKey, set by InsertRequest) for the same reason.
// A rank of its own for each row a submission inserts, and for each a
// job updates, also puts each kind's rows next to each other, where
// PostgreSQL's sender writes them as one statement (postgres'
// mergebatch.go).
const (
	rankRequest = iota
	rankReply
	rankHoldings
	rankJob
	rankOther
	rankUpdateRequest
	rankFinishJob
)

// Which id nextID takes: the columns of Tuning.NextIDs.
const (
	requestID = iota
	jobID
)

// nextID returns a new id of a request or a job (which) for a deferred
// insert, taking one of each for every call of the pass in one statement
// when none is left; ok is false when the tuning cannot (the insert then
// runs at once and returns its id).
func (t *tx) nextID(ctx context.Context, which int) (id int64, ok bool) {
	if t.s.tune.NextIDs == "" {
		return 0, false
	}
	if len(t.ids[which]) == 0 {
		t.ids = [2][]int64{}
		rows, err := t.tx.QueryContext(ctx, t.s.tune.NextIDs, max(t.tx.Calls(), 1))
		if err != nil {
			return 0, false
		}
		defer rows.Close()
		for rows.Next() {
			var r, j int64
			if err := rows.Scan(&r, &j); err != nil {
				t.ids = [2][]int64{}
				return 0, false
			}
			t.ids[requestID], t.ids[jobID] = append(t.ids[requestID], r), append(t.ids[jobID], j)
		}
		if rows.Err() != nil || len(t.ids[which]) == 0 {
			t.ids = [2][]int64{}
			return 0, false
		}
	}
	id, t.ids[which] = t.ids[which][0], t.ids[which][1:]
	return id, true
}

// laterWriter is a querier whose ExecContext defers its write, for a
// caller that reads nothing from the result (insertMany); its reads go
// to the transaction.
type laterWriter struct{ *groupcommit.Tx }

func (w laterWriter) ExecContext(_ context.Context, query string, args ...any) (sql.Result, error) {
	w.Later(rankOther, "", -1, query, args...)
	return nil, nil
}
