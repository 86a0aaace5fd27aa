package sqldb

import (
	"context"
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// What a group's optimistic pass reads once. The jobs of a group read the
// same few users and holdings again and again (a vendor's bulk upload is
// one user moving from one holding): each a statement, and on PostgreSQL
// a round trip of the committer's. Users and holdings are written only by
// Seed, in a transaction of its own, never by a shared one; so within one
// pass a user or holding read before is what a read now would find, but
// for a Seed committed in between, which the pass may as well have run
// before. The pass also takes the dialect's AnimalsLock once: without
// savepoints nothing lets it go before the commit. A pass with savepoints
// reads and locks as each call asks, since rolling back to a savepoint
// lets go of the locks taken inside it.
type passCache struct {
	users         map[string]livestock.User
	holdings      map[livestock.CPH]livestock.Holding
	animalsLocked bool
	moves         movesCache              // groupmoves.go
	requests      map[int64]store.Request // locked ahead (lockahead.go)
}

// cachedUser is UserByName's read, kept for the pass when t is optimistic.
func (t *tx) cachedUser(ctx context.Context, name string) (livestock.User, error) {
	if u, ok := t.cache.users[name]; ok && t.tx.Optimistic() {
		u.Holdings = slices.Clone(u.Holdings)
		return u, nil
	}
	u, err := user(ctx, t.tx, userByNameSQL, name)
	if err == nil && t.tx.Optimistic() {
		if t.cache.users == nil {
			t.cache.users = map[string]livestock.User{}
		}
		kept := u
		kept.Holdings = slices.Clone(u.Holdings)
		t.cache.users[name] = kept
	}
	return u, err
}

// cachedHolding is Holding's read, kept for the pass when t is optimistic.
func (t *tx) cachedHolding(ctx context.Context, cph livestock.CPH) (livestock.Holding, error) {
	if h, ok := t.cache.holdings[cph]; ok && t.tx.Optimistic() {
		return h, nil
	}
	h, err := holding(ctx, t.tx, holdingSQL, cph.String(), notFoundHolding)
	if err == nil && t.tx.Optimistic() {
		if t.cache.holdings == nil {
			t.cache.holdings = map[livestock.CPH]livestock.Holding{}
		}
		t.cache.holdings[cph] = h
	}
	return h, err
}
