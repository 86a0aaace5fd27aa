package sqldb

import (
	"cmp"
	"context"
	"database/sql"
	"slices"

	"github.com/drover-registry/drover/internal/store"
)

// Requests locked ahead. Each job of a group's optimistic pass locks its
// own request first (movements' apply), and on PostgreSQL each of those
// reads is a round trip the committer waits for while it holds the lock
// on moves. So the first job locks, in one statement, the requests of
// every job claimed for the pass (Tx.JobsAhead), newest first as the lock
// order asks, and LockRequest answers the later jobs from what it read.
//
// A request kept here is what a read now would return: this transaction
// holds its row lock, so only its own writes can change it, and
// UpdateRequest drops what it writes. Kept only in an optimistic pass: a
// pass with savepoints lets go of the locks taken in a call that fails.

// lockRequestsSQL is requestsByIDSQL in the lock order (newest first);
// the dialect's RowLock follows.
const lockRequestsSQL = requestsByIDSQL + ` ORDER BY id DESC`

// LockRequests locks those of ids that exist, newest first, and keeps
// them for this pass's LockRequest calls. A pass with savepoints locks
// nothing ahead: LockRequest locks each as it is asked.
func (t *tx) LockRequests(ctx context.Context, ids []int64) (err error) {
	defer t.s.wrap(&err, "LockRequests")
	if !t.tx.Optimistic() {
		return nil
	}
	ask := make([]int64, 0, len(ids))
	for _, id := range ids {
		if _, ok := t.cache.requests[id]; !ok {
			ask = append(ask, id)
		}
	}
	slices.SortFunc(ask, func(a, b int64) int { return cmp.Compare(b, a) })
	ask = slices.Compact(ask)
	if len(ask) == 0 {
		return nil
	}
	args := make([]any, len(ask))
	for i, id := range ask {
		args[i] = id
	}
	if t.cache.requests == nil {
		t.cache.requests = make(map[int64]store.Request, len(ask))
	}
	var sc requestScanner
	return t.s.eachOf(ctx, t.tx, lockRequestsSQL+t.s.d.RowLock, args, func(rows *sql.Rows) error {
		r, err := sc.scan(rows)
		if err == nil {
			t.cache.requests[r.ID] = r
		}
		return err
	})
}

// keptRequest is the request id as LockRequests read it, if this pass
// keeps it.
func (t *tx) keptRequest(id int64) (store.Request, bool) {
	r, ok := t.cache.requests[id]
	if !ok || !t.tx.Optimistic() {
		return store.Request{}, false
	}
	r.Holdings, r.Content = slices.Clone(r.Holdings), slices.Clone(r.Content)
	r.Errors, r.Warnings = slices.Clone(r.Errors), slices.Clone(r.Warnings)
	return r, true
}
