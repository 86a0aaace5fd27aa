package sandbox

import (
	"context"
	"fmt"

	"github.com/drover-registry/drover/internal/store"
)

// Ensure writes the sandbox data unless it is there already, and reports
// whether this call created it. It is safe for several replicas at once.
func Ensure(ctx context.Context, s store.Store, cost int) (bool, error) {
	if _, err := s.UserByName(ctx, Keepers[0].Name); err == nil {
		return false, nil
	}
	seed, err := Data(cost)
	if err != nil {
		return false, err
	}
	created, err := s.Seed(ctx, seed)
	if err != nil {
		return false, fmt.Errorf("seed sandbox: %w", err)
	}
	return created, nil
}
