package movements

import (
	"context"

	"github.com/drover-registry/drover/internal/store"
)

// Apply is the service's job handler, for tests that wrap it.
func (s *Service) Apply(ctx context.Context, tx store.Tx, j store.Job) error {
	return s.apply(ctx, tx, j)
}
