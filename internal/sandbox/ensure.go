package sandbox

import (
	"context"
	"errors"
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// ErrProduction is Ensure's error on a database recorded as production.
var ErrProduction = errors.New("the database is a production database; the sandbox's test users go only into a sandbox database")

// Store is what Ensure uses of store.Store: the database's mode and the
// seed (store.SeedStore), and a user look-up that tells whether the
// sandbox's data is there already.
type Store interface {
	store.SeedStore
	UserByName(ctx context.Context, name string) (livestock.User, error)
}

// Ensure makes s a sandbox database, unless its mode is recorded already,
// then writes the sandbox data unless it is there already, and reports
// whether this call created it. On a production database it writes
// nothing and returns ErrProduction. It is safe for several replicas at
// once.
func Ensure(ctx context.Context, s Store, cost int) (bool, error) {
	m, err := s.ClaimMode(ctx, store.ModeSandbox)
	if err != nil {
		return false, fmt.Errorf("sandbox: %w", err)
	}
	if m != store.ModeSandbox {
		return false, ErrProduction
	}
	if _, err := s.UserByName(ctx, Keepers[0].Name); err == nil {
		return false, nil
	}
	seed, err := Data(cost)
	if err != nil {
		return false, err
	}
	seed.Sandbox = true
	created, err := s.Seed(ctx, seed)
	if err != nil {
		return false, fmt.Errorf("seed sandbox: %w", err)
	}
	return created, nil
}
