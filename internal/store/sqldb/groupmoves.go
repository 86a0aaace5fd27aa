package sqldb

import (
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// What a group's optimistic pass reads once of movements and animals. The
// jobs of a group check moves that share a great deal: a vendor's bulk
// upload moves from one holding on one day (the same route, the same
// arrivals for the standstill), and often the same animals again, and
// each read kept saves a round trip made while holding the lock on moves.
//
// A read kept here is as fresh as the statement it replaces. It is kept
// only while the pass holds the lock on moves (the dialect's
// AnimalsLock, or SQLite's one writer), which every writer of movements
// and of where animals are takes before it writes (movements' lockorder.go;
// Tx.MoveAnimals takes it itself): no other transaction can change what
// was read until this one ends. What this pass writes itself drops what
// it changes: a movement written drops every movement read, and animals
// moved or registered drop those animals. Animals found absent are not
// kept, since a registration adds one without that lock.
type movesCache struct {
	routes    map[routeKey][]store.Movement
	arrivals  map[arrivalsKey][]store.Arrival
	inTransit map[string]int64        // identifier → movement holding it; 0 for none
	animals   map[string]store.Animal // registered animals only
}

type routeKey struct {
	source, destination livestock.CPH
	on                  string // date
	by                  store.Side
}

type arrivalsKey struct {
	cph      livestock.CPH
	from, to string // dates
}

// movesHeld reports whether reads of movements and animals may be kept
// for the rest of the pass: it is optimistic (a pass with savepoints lets
// go of a lock when a call fails) and holds the lock on moves.
func (t *tx) movesHeld() bool {
	return t.tx.Optimistic() && (t.s.d.AnimalsLock == "" || t.cache.animalsLocked)
}

// movementsWritten drops every movement read the pass kept.
func (t *tx) movementsWritten() {
	c := &t.cache.moves
	c.routes, c.arrivals, c.inTransit = nil, nil, nil
}

// animalsWritten drops the kept animals wearing identifiers.
func (t *tx) animalsWritten(identifiers ...string) {
	for _, id := range identifiers {
		delete(t.cache.moves.animals, id)
	}
}

func (t *tx) keptRoute(k routeKey) ([]store.Movement, bool) {
	return kept(t, t.cache.moves.routes, k, cloneMovements)
}

func (t *tx) keepRoute(k routeKey, list []store.Movement) {
	keep(t, &t.cache.moves.routes, k, list, cloneMovements)
}

func (t *tx) keptArrivals(k arrivalsKey) ([]store.Arrival, bool) {
	return kept(t, t.cache.moves.arrivals, k, cloneArrivals)
}

func (t *tx) keepArrivals(k arrivalsKey, list []store.Arrival) {
	keep(t, &t.cache.moves.arrivals, k, list, cloneArrivals)
}

// kept returns a copy of the list the pass kept under k, if it may still
// use it; keep keeps a copy of list under k, if the pass may keep reads.
// Copies, so that a caller changing what it was given changes nothing kept.
func kept[K comparable, V any](t *tx, m map[K][]V, k K, clone func([]V) []V) ([]V, bool) {
	list, ok := m[k]
	if !ok || !t.movesHeld() {
		return nil, false
	}
	return clone(list), true
}

func keep[K comparable, V any](t *tx, m *map[K][]V, k K, list []V, clone func([]V) []V) {
	if !t.movesHeld() {
		return
	}
	if *m == nil {
		*m = map[K][]V{}
	}
	(*m)[k] = clone(list)
}

// keptInTransit moves from ids those whose state in transit the pass
// kept into found (those in transit), and returns the rest.
func (t *tx) keptInTransit(ids []any, found map[string]int64) []any {
	if len(t.cache.moves.inTransit) == 0 || !t.movesHeld() {
		return ids
	}
	rest := ids[:0:0]
	for _, id := range ids {
		m, ok := t.cache.moves.inTransit[id.(string)]
		switch {
		case !ok:
			rest = append(rest, id)
		case m != 0:
			found[id.(string)] = m
		}
	}
	return rest
}

// keepInTransit keeps the state in transit of each of asked: in found,
// or in none.
func (t *tx) keepInTransit(asked []any, found map[string]int64) {
	if !t.movesHeld() {
		return
	}
	c := &t.cache.moves
	if c.inTransit == nil {
		c.inTransit = map[string]int64{}
	}
	for _, id := range asked {
		c.inTransit[id.(string)] = found[id.(string)]
	}
}

// keptAnimals moves from ids the animals the pass kept into found, and
// returns the rest.
func (t *tx) keptAnimals(ids []any, found map[string]store.Animal) []any {
	if len(t.cache.moves.animals) == 0 || !t.movesHeld() {
		return ids
	}
	rest := ids[:0:0]
	for _, id := range ids {
		if a, ok := t.cache.moves.animals[id.(string)]; ok {
			found[a.Identifier.String()] = cloneAnimal(a)
		} else {
			rest = append(rest, id)
		}
	}
	return rest
}

func (t *tx) keepAnimal(a store.Animal) {
	if !t.movesHeld() {
		return
	}
	c := &t.cache.moves
	if c.animals == nil {
		c.animals = map[string]store.Animal{}
	}
	c.animals[a.Identifier.String()] = cloneAnimal(a)
}

func cloneMovements(list []store.Movement) []store.Movement {
	out := slices.Clone(list)
	for i := range out {
		m := &out[i]
		m.Flags, m.Duplicates = slices.Clone(m.Flags), slices.Clone(m.Duplicates)
		m.Devices, m.Batches = slices.Clone(m.Devices), slices.Clone(m.Batches)
	}
	return out
}

func cloneArrivals(list []store.Arrival) []store.Arrival {
	out := slices.Clone(list)
	for i := range out {
		out[i].Flags = slices.Clone(out[i].Flags)
	}
	return out
}

func cloneAnimal(a store.Animal) store.Animal {
	a.Record = slices.Clone(a.Record)
	return a
}
