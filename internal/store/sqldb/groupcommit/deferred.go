package groupcommit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
)

// Deferred writes. Over a network every statement of a group is a round
// trip, and a committer runs them one after another. So in a group's
// optimistic pass (run.go), when the database can take several statements
// at once (Config.ExecBatch), a write whose outcome its caller can predict
// may wait (Tx.Later): the writes waiting go together, in one round trip,
// before the next statement sent through the transaction (a read must see
// them) or before the commit.
//
// Each such write says how many rows it must change. One that changes
// another number or fails makes the pass give up: it is rolled back and
// the group runs again with a savepoint around each fn, writing at once,
// where each write's own check answers its caller.

// Statement is one write sent with others by Config.ExecBatch, which sets
// Affected to the rows it changed.
type Statement struct {
	Query    string
	Args     []any
	Affected int64
	// Want is the rows it must change; -1 for any number. A sender that
	// merges statements (Config.ExecBatch) gives each its share of the
	// merged count only when that is what they wanted together.
	Want int64
	rank int    // statements of a lower rank go first
	key  string // within a rank, the order they go in
}

// errDeferred is a deferred write that did not change the rows it had to.
var errDeferred = errors.New("groupcommit: a deferred write did not do what it was sent for")

// batch is what a deferring transaction keeps: the writes not yet sent,
// and the first failure among those sent.
type batch struct {
	on      bool // the pass is optimistic: writes may wait
	pending []Statement
	failed  error
	send    func(ctx context.Context, driverConn any, stmts []Statement) error // Config.ExecBatch
	sent    *atomic.Int64                                                      // the group's count of batches sent
}

// Deferring reports whether t's writes may wait (Later): t is a group's
// optimistic pass on a database that can batch them.
func (t *Tx) Deferring() bool { return t.batch != nil && t.batch.on }

// Later keeps a write for the next flush, when Deferring. want is the
// rows it must change (-1: any). Writes go in rank order, and within a
// rank in key order: two groups that insert the same unique values in
// opposite orders wait on each other's index entries until the database
// fails one of them as deadlocked; sent in one order by every group, they
// queue instead.
func (t *Tx) Later(rank int, key string, want int64, query string, args ...any) {
	t.batch.pending = append(t.batch.pending, Statement{Query: query, Args: args, Want: want, rank: rank, key: key})
}

// flush sends the pending writes, in rank and key order, in one round
// trip. A failure is kept (deferFailed) rather than returned: the pass is
// given up at its end, and a statement of a broken transaction fails
// anyway.
func (t *Tx) flush(ctx context.Context) {
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
		if st.Want >= 0 && st.Affected != st.Want {
			b.failed = fmt.Errorf("%w: %d rows, not %d: %.60s", errDeferred, st.Affected, st.Want, st.Query)
			return
		}
	}
}

// deferFailed sends what is pending and reports the first failure of the
// transaction's deferred writes.
func (t *Tx) deferFailed(ctx context.Context) error {
	if t.batch == nil {
		return nil
	}
	t.flush(ctx)
	return t.batch.failed
}
