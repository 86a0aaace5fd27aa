package tracing

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// History is one animal's life as the registry recorded it, or a batch's
// movements when the identifier is a batch number.
type History struct {
	// Animal is the animal's record; its Identifier is empty for a batch.
	Animal store.Animal
	// Batch is the batch number asked for; empty for an animal.
	Batch string
	// Movements are every movement naming the animal (or the batch), in any
	// state (undone and rejected ones too, as they ended), by id: a
	// corrected movement in its latest version, with RequestID naming the
	// correction.
	Movements []store.Movement
	// Stays are the holdings the animal was on, in order; none for a batch.
	Stays []Stay
}

// AnimalHistory answers the history of a tagged animal, or, when no
// animal wears identifier, of the batch it numbers; KindNotFound when it
// is neither.
func (s *Service) AnimalHistory(ctx context.Context, identifier string) (History, error) {
	forms := livestock.IdentifierForms(identifier)
	found, err := s.st.AnimalsByID(ctx, forms)
	if err != nil {
		return History{}, err
	}
	var a store.Animal
	ok := false
	for _, f := range forms {
		if a, ok = found[f]; ok {
			identifier = f
			break
		}
	}
	if !ok {
		for _, f := range forms {
			moves, err := s.st.BatchMovements(ctx, f)
			if err != nil {
				return History{}, err
			}
			if len(moves) > 0 {
				return History{Batch: f, Movements: moves}, nil
			}
		}
		return History{}, livestock.Errorf(livestock.KindNotFound, "no animal or batch %q", identifier)
	}
	moves, err := s.st.AnimalMovements(ctx, []string{identifier})
	if err != nil {
		return History{}, err
	}
	return History{Animal: a, Movements: moves, Stays: Stays(a, moves)}, nil
}

// Seen keeps of h what a reader of holdings sees: the stays on them, and
// the movements from or to them. ok is false for an animal none of whose
// stays is left, and for a batch none of whose movements is, so that a
// keeper who never kept the animal learns nothing of it, not even that it
// exists: a movement they reported from another keeper's holding, which
// that keeper has not accepted, names the animal but never put it on
// theirs.
func (h History) Seen(canRead func(cph livestock.CPH) bool) (History, bool) {
	out := History{Animal: h.Animal, Batch: h.Batch}
	for _, st := range h.Stays {
		if canRead(st.Holding) {
			out.Stays = append(out.Stays, st)
		}
	}
	for _, m := range h.Movements {
		if canRead(m.Source) || canRead(m.Destination) {
			out.Movements = append(out.Movements, m)
		}
	}
	if !h.Animal.Identifier.IsZero() {
		return out, len(out.Stays) > 0
	}
	return out, len(out.Movements) > 0
}

// HoldingMovements lists the standing movements that left holding with a
// transfer date in [from, to] or reached it with an arrival date in it,
// with their animals and batches, by that date and id.
func (s *Service) HoldingMovements(ctx context.Context, holding livestock.CPH, from, to time.Time) ([]store.Movement, error) {
	out, err := s.st.MovementsFrom(ctx, []livestock.CPH{holding}, from, to)
	if err != nil {
		return nil, err
	}
	in, err := s.st.MovementsTo(ctx, []livestock.CPH{holding}, from, to)
	if err != nil {
		return nil, err
	}
	list := append(out, in...)
	key := func(m store.Movement) time.Time {
		if m.Source == holding {
			return m.TransferDate
		}
		return Arrival(m)
	}
	slices.SortFunc(list, func(a, b store.Movement) int {
		if c := key(a).Compare(key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.Settled(), b.Settled()) // a day's moves in the order they applied
	})
	return list, s.st.FillMovements(ctx, list)
}
