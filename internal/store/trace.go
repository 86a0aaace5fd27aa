package store

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// TraceStore reads what outbreak tracing needs (internal/tracing): the
// movements that left or reached a set of holdings over a window, every
// movement of an animal or a batch, and where animals are now. Each read
// runs on an index whose range is the holdings and dates asked for, so its
// cost grows with what a trace reaches, not with the registry.
//
// A movement counts for tracing while it stands: one awaiting review
// (PendingReview), completed or accepted. Undone and rejected movements
// are left out by the window reads and returned, in their state, by the
// per-animal and per-batch reads, whose callers show a history. A
// corrected movement is read in its latest version, the only one kept.
type TraceStore interface {
	// MovementsFrom lists the standing movements leaving one of holdings
	// with a transfer date in [from, to], by transfer date and id, without
	// their devices and batches (FillMovements adds them).
	MovementsFrom(ctx context.Context, holdings []livestock.CPH, from, to time.Time) ([]Movement, error)
	// MovementsTo lists the standing movements reaching one of holdings
	// with an arrival date in [from, to] (the transfer date until a review
	// sets one), by that date and id, without devices and batches.
	MovementsTo(ctx context.Context, holdings []livestock.CPH, from, to time.Time) ([]Movement, error)
	// HoldingNamed reports whether any standing movement, at any date,
	// leaves or reaches cph, stopping at the first one each index finds.
	HoldingNamed(ctx context.Context, cph livestock.CPH) (bool, error)
	// FillMovements sets the Devices and Batches of each movement of list.
	FillMovements(ctx context.Context, list []Movement) error
	// AnimalMovements lists every movement, in any state, that names one of
	// identifiers among its devices, by id, with devices and batches.
	AnimalMovements(ctx context.Context, identifiers []string) ([]Movement, error)
	// BatchMovements lists every movement, in any state, with a batch line
	// numbered number, by id, with devices and batches.
	BatchMovements(ctx context.Context, number string) ([]Movement, error)
	// AnimalsByID returns the registered animals among identifiers, by
	// identifier, without the lock Tx.Animals takes.
	AnimalsByID(ctx context.Context, identifiers []string) (map[string]Animal, error)
	// AnimalsOn lists the animals whose holding is cph now, in any state.
	AnimalsOn(ctx context.Context, cph livestock.CPH) ([]Animal, error)
	// BatchBalance sums, by species, the animals of batch lines that
	// arrived on cph on or before day (In, by arrival date) and that left it
	// before day (Out, by transfer date), by movements completed or
	// accepted: In less Out are those there at some time that day, as a
	// register lists its tagged animals, those leaving that day included.
	// Batch animals have no identity, so a holding's batch stock is known
	// only as what its movements brought and took.
	BatchBalance(ctx context.Context, cph livestock.CPH, day time.Time) (map[livestock.Species]BatchFlow, error)
	// PickAnimal returns a tagged animal some movement carried: the first
	// at or after the fraction r (0 ≤ r < 1) of the span of movement ids,
	// for a traceability exercise on a random animal. KindNotFound when no
	// movement carried one.
	PickAnimal(ctx context.Context, r float64) (string, error)
}

// BatchFlow is the batch animals of one species that arrived on a holding
// and that left it.
type BatchFlow struct{ In, Out int }
