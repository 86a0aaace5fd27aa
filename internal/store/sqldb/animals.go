package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	animalSQL       = `SELECT ` + animalColumns + ` FROM animals WHERE identifier = $1`
	flockSQL        = `SELECT mark, species, cph FROM flocks WHERE mark = $1`
	holdingByMHSSQL = `SELECT cph, type, mhs, name FROM holdings WHERE mhs = $1`
	// animalsSQL and moveAnimalsSQL take a chunk of identifiers' marks at
	// %s (eachOf; MoveAnimals); moveAnimalsSQL's first two parameters are
	// the holding and the date.
	animalsSQL      = `SELECT ` + animalColumns + ` FROM animals WHERE identifier IN (%s)`
	moveAnimalsSQL  = `UPDATE animals SET cph = $1, on_since = $2 WHERE identifier IN (%s)`
	notFoundAnimal  = "no animal wears %q"
	notFoundFlock   = "no flock or herd %q"
	notFoundHolding = "no holding %s"
	notFoundMHS     = "no holding has the MHS number %s"
)

// Animal returns a registered animal by its printed identifier.
func (s *Store) Animal(ctx context.Context, identifier string) (a store.Animal, err error) {
	defer s.wrap(&err, "Animal")
	return animal(ctx, s.r, identifier)
}

// Flock returns a flock or herd by its mark.
func (s *Store) Flock(ctx context.Context, mark livestock.FlockMark) (f store.Flock, err error) {
	defer s.wrap(&err, "Flock")
	return flock(ctx, s.r, mark)
}

// Flock returns a flock or herd as this transaction sees it.
func (t *tx) Flock(ctx context.Context, mark livestock.FlockMark) (f store.Flock, err error) {
	defer t.s.wrap(&err, "Flock")
	return flock(ctx, t.tx, mark)
}

// HoldingByMHS returns the holding (an abattoir) with an MHS number.
func (s *Store) HoldingByMHS(ctx context.Context, mhs livestock.MHS) (h livestock.Holding, err error) {
	defer s.wrap(&err, "HoldingByMHS")
	return holding(ctx, s.r, holdingByMHSSQL, mhs.String(), notFoundMHS)
}

// HoldingByMHS returns the holding with an MHS number, as this transaction
// sees it.
func (t *tx) HoldingByMHS(ctx context.Context, mhs livestock.MHS) (h livestock.Holding, err error) {
	defer t.s.wrap(&err, "HoldingByMHS")
	return holding(ctx, t.tx, holdingByMHSSQL, mhs.String(), notFoundMHS)
}

// Holding returns one holding as this transaction sees it.
func (t *tx) Holding(ctx context.Context, cph livestock.CPH) (h livestock.Holding, err error) {
	defer t.s.wrap(&err, "Holding")
	return t.cachedHolding(ctx, cph)
}

// Animals returns, by identifier, the animals wearing identifiers, as this
// transaction sees them, after taking the dialect's AnimalsLock. A job
// reads the animals to check a move against where they are, then moves
// them: two jobs of the same sheep on two of PostgreSQL's committers had
// both read it on the same holding and both moved it, the second from
// where it no longer was (the crash test found a sheep whose place no
// movement explained). Queued, the second reads where the first put it.
func (t *tx) Animals(ctx context.Context, identifiers []string) (found map[string]store.Animal, err error) {
	defer t.s.wrap(&err, "Animals")
	if err := t.lockAnimals(ctx); err != nil {
		return nil, err
	}
	found = make(map[string]store.Animal, len(identifiers))
	ask := t.keptAnimals(distinct(identifiers), found)
	err = t.s.eachOf(ctx, t.tx, animalsSQL, ask, func(rows *sql.Rows) error {
		a, err := scanAnimal(rows)
		if err == nil {
			found[a.Identifier.String()] = a
			t.keepAnimal(a)
		}
		return err
	})
	return found, err
}

// MoveAnimals puts every animal wearing one of identifiers on holding cph
// since onSince.
func (t *tx) MoveAnimals(ctx context.Context, identifiers []string, cph livestock.CPH, onSince time.Time) (err error) {
	defer t.s.wrap(&err, "MoveAnimals")
	t.animalsWritten(identifiers...)
	if err := t.lockAnimals(ctx); err != nil {
		return err
	}
	ids := distinct(identifiers)
	for part := range slices.Chunk(ids, t.s.d.MaxParams-2) {
		args := t.s.planEachTime(append([]any{cph.String(), date(onSince)}, part...))
		res, err := t.tx.ExecContext(ctx, fmt.Sprintf(moveAnimalsSQL, marks(3, len(part))), args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n != int64(len(part)) {
			return livestock.Errorf(livestock.KindNotFound, "%d of %d animals to move are not registered", int64(len(part))-n, len(part))
		}
	}
	return nil
}

// lockAnimals takes the dialect's AnimalsLock, if it has one. A pass with
// savepoints takes it again at each call rather than remembering it: a
// lock taken after a savepoint (each call of such a pass has one) is let
// go when the savepoint is rolled back to, and taking it again is cheap.
// An optimistic pass, which has none, takes it once (groupcache.go).
func (t *tx) lockAnimals(ctx context.Context) error {
	if t.s.d.AnimalsLock == "" || t.cache.animalsLocked {
		return nil
	}
	t.cache.animalsLocked = t.tx.Optimistic()
	if t.tx.Deferring() { // sent before the statement that reads or moves them
		t.tx.Later(rankOther, "", -1, t.s.d.AnimalsLock)
		return nil
	}
	_, err := t.tx.ExecContext(ctx, t.s.d.AnimalsLock)
	return err
}

// distinct returns identifiers without repeats, in their first order, as
// the arguments of an IN list (Animals, MoveAnimals, InTransit).
func distinct(identifiers []string) []any {
	seen := make(map[string]bool, len(identifiers))
	args := make([]any, 0, len(identifiers))
	for _, id := range identifiers {
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	return args
}

// distinctHoldings is distinct for holdings, bound as their text.
func distinctHoldings(holdings []livestock.CPH) []any {
	seen := make(map[livestock.CPH]bool, len(holdings))
	args := make([]any, 0, len(holdings))
	for _, h := range holdings {
		if !seen[h] {
			seen[h] = true
			args = append(args, h.String())
		}
	}
	return args
}

func animal(ctx context.Context, q querier, identifier string) (store.Animal, error) {
	a, err := scanAnimal(q.QueryRowContext(ctx, animalSQL, identifier))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Animal{}, notFound(notFoundAnimal, identifier)
	}
	return a, err
}

func flock(ctx context.Context, q querier, mark livestock.FlockMark) (store.Flock, error) {
	var f store.Flock
	err := q.QueryRowContext(ctx, flockSQL, mark.String()).Scan(flockMarkCol{&f.Mark}, speciesCol{&f.Species}, cphCol{&f.CPH})
	if errors.Is(err, sql.ErrNoRows) {
		return store.Flock{}, notFound(notFoundFlock, mark.String())
	}
	return f, err
}

func holding(ctx context.Context, q querier, query, arg, missing string) (livestock.Holding, error) {
	h, err := scanHolding(q.QueryRowContext(ctx, query, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return livestock.Holding{}, notFound(missing, arg)
	}
	return h, err
}

// storedCPH parses a CPH read from the database.
func storedCPH(s string) (livestock.CPH, error) {
	cph, err := livestock.ParseCPH(s)
	if err != nil {
		// %v, not %w: a bad stored value is our fault, not the caller's.
		return livestock.CPH{}, fmt.Errorf("stored CPH %q: %v", s, err)
	}
	return cph, nil
}

// storedTag reads a stored tag by the rules of the species' tags; "" is
// no tag.
func storedTag(sp livestock.Species, s string) (livestock.Tag, error) {
	if s == "" {
		return livestock.Tag{}, nil
	}
	t, err := livestock.ParseTag(sp, s)
	if err != nil {
		// %v, not %w: a bad stored value is our fault, not the caller's.
		return livestock.Tag{}, fmt.Errorf("stored tag %q: %v", s, err)
	}
	return t, nil
}
