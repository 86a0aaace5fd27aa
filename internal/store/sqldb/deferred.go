package sqldb

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
)

// Deferred writes. On PostgreSQL every statement of a group is a round
// trip, and a committer runs them one after another: a group of 64
// submissions would make 256 of them (request, holdings, job, reply),
// where a naive server's one INSERT a request runs on four connections at
// once. So
// in a group's optimistic pass (grouprun.go), on a database whose Tuning can send
// several statements at once (Tuning.ExecBatch), the writes whose outcome
// a caller can predict are not sent when made: they wait in the
// transaction and go together, in one round trip, before the next read
// (which must see them) or before the commit.
//
// Each such write says how many rows it must change. One that changes
// another number (a trackingId used before, a reply already kept, a row
// gone) or fails makes the pass give up: it is rolled back and the group
// runs again with a savepoint around each fn, writing at once, where each
// write's own check answers its caller as it always has.

// Statement is one write sent with others by Tuning.ExecBatch, which sets
// Affected to the rows it changed.
type Statement struct {
	Query    string
	Args     []any
	Affected int64
	want     int64  // the rows it must change; -1 for any number
	rank     int    // statements of a lower rank go first (rankRequest …)
	key      string // within rankRequest and rankReply, the order they go in
}

// Ranks of deferred writes. Two groups that insert the same trackingIds
// (or correlation ids) in opposite orders wait on each other's unique
// index entries until PostgreSQL fails one of them as deadlocked, after a
// second. Sent in one order by every group, they queue instead.
const (
	rankRequest = iota
	rankReply
	rankOther
)

// errDeferred is a deferred write that did not change the rows it had to.
var errDeferred = errors.New("sqldb: a deferred write did not do what it was sent for")

// deferring reports whether t's writes may wait for the next flush.
func (t *sqlTx) deferring() bool { return t.batch != nil && t.batch.on }

// batchState is what a deferring transaction keeps: the writes not yet
// sent, and the first failure among those sent.
type batchState struct {
	on      bool
	pending []Statement
	failed  error
	// ids are request and job ids taken ahead for the pass's inserts
	// (nextID), idWant of each at a time.
	ids    [2][]int64
	idWant int
	send   func(ctx context.Context, driverConn any, stmts []Statement) error // Tuning.ExecBatch
	sent   *atomic.Int64                                                      // the store's count of batches sent
}

// later keeps a write for the next flush. want is the rows it must
// change (-1: any); rank and key order it (see rankRequest).
func (t *sqlTx) later(rank int, key string, want int64, query string, args ...any) {
	t.batch.pending = append(t.batch.pending, Statement{Query: query, Args: args, want: want, rank: rank, key: key})
}

// flush sends the pending writes, in rank and key order, in one round
// trip. A failure is kept (deferFailed) rather than returned: the pass is
// given up at its end, and a statement of a broken transaction fails
// anyway.
func (t *sqlTx) flush(ctx context.Context) {
	b := t.batch
	if b == nil || len(b.pending) == 0 {
		return
	}
	stmts := b.pending
	b.pending = nil
	if b.failed != nil {
		return
	}
	slices.SortStableFunc(stmts, func(x, y Statement) int {
		return cmp.Or(cmp.Compare(x.rank, y.rank), cmp.Compare(x.key, y.key))
	})
	err := t.conn.Raw(func(dc any) error { return b.send(ctx, dc, stmts) })
	b.sent.Add(1)
	if err != nil {
		b.failed = err
		return
	}
	for _, st := range stmts {
		if st.want >= 0 && st.Affected != st.want {
			b.failed = fmt.Errorf("%w: %d rows, not %d: %.60s", errDeferred, st.Affected, st.want, st.Query)
			return
		}
	}
}

// deferFailed sends what is pending and reports the first failure of the
// transaction's deferred writes.
func (t *sqlTx) deferFailed(ctx context.Context) error {
	if t.batch == nil {
		return nil
	}
	t.flush(ctx)
	return t.batch.failed
}

// Which id nextID takes: the columns of Tuning.NextIDs.
const (
	requestID = iota
	jobID
)

// nextID returns a new id of a request or a job (which) for a deferred
// insert, taking idWant of each in one statement when none is left; ok is
// false when the tuning cannot (the insert then runs at once and returns
// its id).
func (t *tx) nextID(ctx context.Context, which int) (id int64, ok bool) {
	b := t.tx.batch
	if t.s.tune.NextIDs == "" {
		return 0, false
	}
	if len(b.ids[which]) == 0 {
		b.ids = [2][]int64{}
		rows, err := t.tx.QueryContext(ctx, t.s.tune.NextIDs, max(b.idWant, 1))
		if err != nil {
			return 0, false
		}
		defer rows.Close()
		for rows.Next() {
			var r, j int64
			if err := rows.Scan(&r, &j); err != nil {
				b.ids = [2][]int64{}
				return 0, false
			}
			b.ids[requestID], b.ids[jobID] = append(b.ids[requestID], r), append(b.ids[jobID], j)
		}
		if rows.Err() != nil || len(b.ids[which]) == 0 {
			b.ids = [2][]int64{}
			return 0, false
		}
	}
	id, b.ids[which] = b.ids[which][0], b.ids[which][1:]
	return id, true
}

// laterWriter is a querier whose ExecContext defers its write, for a
// caller that reads nothing from the result (insertMany); its reads go
// to the transaction.
type laterWriter struct{ *sqlTx }

func (w laterWriter) ExecContext(_ context.Context, query string, args ...any) (sql.Result, error) {
	w.later(rankOther, "", -1, query, args...)
	return nil, nil
}
