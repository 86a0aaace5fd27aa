package tracing

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Direction is which way in time a trace follows movements.
type Direction string

const (
	Forward  Direction = "forward"  // where animals went after the risk reached a holding
	Backward Direction = "backward" // where animals came from before it
	Both     Direction = "both"
)

// Query is one trace: from a holding or from an animal, over the risk
// window [From, To], up to Hops movements away.
type Query struct {
	Holding   livestock.CPH // zero for an animal trace
	Animal    string        // a tag, or "" for a holding trace
	From, To  time.Time
	Direction Direction
	Hops      int
	Species   livestock.Species // only movements of this species; zero for all
}

// Result is a trace's answer.
type Result struct {
	// Animal is the traced animal as the register prints it (the query
	// may name it by another form, its RFID say); "" for a holding.
	Animal string
	// Origins are where the risk starts: the holding traced over the
	// window, or the traced animal's stays that share a day with it.
	Origins []Stay
	// Holdings are every holding reached, by direction, hops and holding.
	Holdings []Reached
	// Animals are, for an animal trace, the animals that shared a holding
	// with it during the window; for a holding trace, the tagged animals
	// every movement that carried the risk moved. Each with where it is now.
	Animals []Contact
	// AnimalsCut is true when there were more animals than MaxContacts,
	// and Animals holds the first MaxContacts of them.
	AnimalsCut bool
	// Read counts the movements the trace read: its cost.
	Read int
}

// Reached is a holding a trace reached.
type Reached struct {
	Holding   livestock.CPH
	Direction Direction // Forward or Backward
	// Hops is the fewest movements from an origin; Path is such a path,
	// in the order the animals travelled.
	Hops int
	Path []store.Movement
	// Date is, forwards, the earliest day the risk can have arrived (by
	// any path within the hops allowed); backwards, the latest day animals
	// can have left it and still reached an origin in time.
	Date time.Time
	// DatePath is the path that gives Date, in travel order, when it is
	// not Path (a longer path arrived earlier, or left later); nil when
	// Path gives Date itself.
	DatePath []store.Movement
}

// Contact is an animal a trace found, with where it is now.
type Contact struct {
	Animal store.Animal // as it is now: its holding, its state
	// Stay is its stay on the holding it shared with the traced animal
	// (animal traces), or 0-valued but for Movement, the path movement
	// that carried it (holding traces).
	Stay Stay
}

// Trace runs q. Paths respect time: forwards, a movement counts only if
// it left a holding on or after the day the risk reached it (and within
// the window); backwards, only if it arrived on or before the latest day
// that matters there (and within the window). Holdings are relaxed hop by
// hop, each keeping its best day, so a trace reads the movements of the
// holdings it reaches and no others.
func (s *Service) Trace(ctx context.Context, q Query) (Result, error) {
	var res Result
	if q.Animal != "" {
		h, err := s.AnimalHistory(ctx, q.Animal)
		if err != nil && !livestock.IsNotFound(err) {
			return Result{}, err
		}
		if err != nil || h.Batch != "" {
			// A trace's query is its body: the 404 names the member, as a
			// path parameter's names the parameter.
			detail := fmt.Sprintf("no animal wears %q", q.Animal)
			return Result{}, &livestock.Error{Kind: livestock.KindNotFound, Detail: detail,
				Fields: []livestock.FieldError{{Code: livestock.CodeNotFound, Source: "/animal", Value: q.Animal, Message: detail}}}
		}
		q.Animal = h.Animal.Identifier.String()
		res.Animal = q.Animal
		for _, st := range h.Stays {
			if st.Overlaps(q.From, q.To) {
				res.Origins = append(res.Origins, st)
			}
		}
	} else {
		res.Origins = []Stay{{Holding: q.Holding, From: q.From, To: q.To}}
	}
	// The two directions read different indexes and share nothing until
	// their holdings are merged, so they run at once, each on a
	// connection of its own: a trace waits for the slower, not for both.
	var g errgroup.Group
	var parts [2][]Reached
	var carriers [2][]store.Movement
	var reads [2]int
	for i, d := range []Direction{Forward, Backward} {
		if q.Direction != d && q.Direction != Both {
			continue
		}
		g.Go(func() (err error) {
			parts[i], carriers[i], reads[i], err = s.relax(ctx, q, d, res.Origins)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return Result{}, err
	}
	res.Holdings, res.Read = append(parts[0], parts[1]...), reads[0]+reads[1]
	var err error
	if q.Animal != "" {
		res.Animals, res.AnimalsCut, err = s.contacts(ctx, q, res.Origins)
	} else {
		res.Animals, res.AnimalsCut, err = s.carried(ctx, slices.Concat(carriers[0], carriers[1]))
	}
	return res, err
}

// Named reports whether any standing movement, at any date, leaves or
// reaches holding: a holding the registry has no record of may still be
// known from the movements loaded for tracing.
func (s *Service) Named(ctx context.Context, holding livestock.CPH) (bool, error) {
	return s.st.HoldingNamed(ctx, holding)
}

// entry is one improvement of a holding's best day, at a hop count.
type entry struct {
	holding livestock.CPH
	hops    int
	day     time.Time
	move    *store.Movement // the movement that made it (in its hop's read); nil for an origin
	prev    int             // the entry it came from; -1 for an origin
}

// relax runs one direction of q from origins: the holdings reached, and
// the carriers, every movement that carried the risk on (whether or not it
// was the best way to the holding it reached), each once.
func (s *Service) relax(ctx context.Context, q Query, d Direction, origins []Stay) ([]Reached, []store.Movement, int, error) {
	fwd := d == Forward
	better := func(a, b time.Time) bool { // a is a better day than b
		if fwd {
			return a.Before(b)
		}
		return a.After(b)
	}
	var entries []entry
	best := map[livestock.CPH]int{}     // holding → its best entry
	frontier := map[livestock.CPH]int{} // holdings improved at the last hop → that entry
	for _, o := range origins {
		day := maxDay(o.From, q.From)
		if !fwd {
			day = q.To
			if !o.To.IsZero() && o.To.Before(day) {
				day = o.To
			}
		}
		if i, ok := best[o.Holding]; ok && !better(day, entries[i].day) {
			continue
		}
		entries = append(entries, entry{holding: o.Holding, day: day, prev: -1})
		best[o.Holding], frontier[o.Holding] = len(entries)-1, len(entries)-1
	}
	first := map[livestock.CPH]int{} // holding → its best entry of the fewest hops past the origins
	read := 0
	var carriers []store.Movement
	carried := map[int64]bool{}
	for hop := 1; hop <= q.Hops && len(frontier) > 0; hop++ {
		moves, err := s.frontierMoves(ctx, q, fwd, frontier, entries)
		if err != nil {
			return nil, nil, 0, err
		}
		read += len(moves)
		next := map[livestock.CPH]int{}
		for k := range moves {
			m := &moves[k]
			if !q.Species.IsZero() && m.Species != q.Species {
				continue
			}
			at, to, day := m.Source, m.Destination, Arrival(*m)
			if !fwd {
				at, to, day = m.Destination, m.Source, m.TransferDate
			}
			from, ok := frontier[at]
			if !ok || (fwd && m.TransferDate.Before(entries[from].day)) || (!fwd && Arrival(*m).After(entries[from].day)) {
				continue
			}
			if !carried[m.ID] {
				carried[m.ID] = true
				carriers = append(carriers, *m)
			}
			if i, ok := best[to]; ok && !better(day, entries[i].day) {
				continue
			}
			entries = append(entries, entry{holding: to, hops: hop, day: day, move: m, prev: from})
			best[to], next[to] = len(entries)-1, len(entries)-1
			// The path is the best entry of the fewest hops: a later entry
			// of the same hop is a better day by the same number of moves.
			if f, ok := first[to]; !ok || entries[f].hops == hop {
				first[to] = len(entries) - 1
			}
		}
		frontier = next
	}
	var out []Reached
	var paths []*Reached
	path := func(i int) []store.Movement {
		p := make([]store.Movement, 0, entries[i].hops)
		for j := i; entries[j].prev >= 0; j = entries[j].prev {
			p = append(p, *entries[j].move)
		}
		if fwd {
			slices.Reverse(p)
		}
		return p
	}
	for h, i := range first {
		r := Reached{Holding: h, Direction: d, Hops: entries[i].hops, Date: entries[best[h]].day, Path: path(i)}
		if b := best[h]; b != i && !entries[b].day.Equal(entries[i].day) {
			r.DatePath = path(b)
		}
		out = append(out, r)
	}
	for i := range out {
		paths = append(paths, &out[i])
	}
	if err := s.fillPaths(ctx, paths, carriers); err != nil {
		return nil, nil, 0, err
	}
	slices.SortFunc(out, func(a, b Reached) int {
		if a.Hops != b.Hops {
			return a.Hops - b.Hops
		}
		return a.Holding.Compare(b.Holding)
	})
	return out, carriers, read, nil
}

// readRuns is how many runs a frontier's holdings are read in at most.
const readRuns = 4

// frontierMoves reads the movements that may carry the risk on from the
// holdings of frontier: forwards those leaving each holding on or after
// its day, backwards those reaching it on or before its day (and within
// the window). Holdings are sorted by their day and read in up to readRuns
// runs, each from the earliest (latest) day of its run, so that a market
// the risk reached late in the window is not read from its start. The
// rows a run reads before a holding's own day are skipped by relax. The
// movements come back in the order one read of the whole frontier would
// give: by date (leaving forwards, arriving backwards), then id.
func (s *Service) frontierMoves(ctx context.Context, q Query, fwd bool, frontier map[livestock.CPH]int, entries []entry) ([]store.Movement, error) {
	holdings := slices.Collect(maps.Keys(frontier))
	slices.SortFunc(holdings, func(a, b livestock.CPH) int {
		c := entries[frontier[a]].day.Compare(entries[frontier[b]].day)
		if !fwd {
			c = -c
		}
		return cmp.Or(c, a.Compare(b))
	})
	size := max(s.minRun, (len(holdings)+readRuns-1)/readRuns)
	var moves []store.Movement
	for run := range slices.Chunk(holdings, size) {
		day := entries[frontier[run[0]]].day
		var part []store.Movement
		var err error
		if fwd {
			part, err = s.st.MovementsFrom(ctx, run, day, q.To)
		} else {
			part, err = s.st.MovementsTo(ctx, run, q.From, day)
		}
		if err != nil {
			return nil, err
		}
		moves = append(moves, part...)
	}
	key := Arrival
	if fwd {
		key = func(m store.Movement) time.Time { return m.TransferDate }
	}
	slices.SortFunc(moves, func(a, b store.Movement) int { return cmp.Or(key(a).Compare(key(b)), cmp.Compare(a.ID, b.ID)) })
	return moves, nil
}

// fillPaths reads the devices and batches of the carriers, each once, and
// gives the movements on paths theirs: every movement on a path carried
// the risk, so one read serves the paths and the animals carried.
func (s *Service) fillPaths(ctx context.Context, paths []*Reached, carriers []store.Movement) error {
	if err := s.st.FillMovements(ctx, carriers); err != nil {
		return err
	}
	at := make(map[int64]int, len(carriers)) // movement id → its place in carriers
	for i, m := range carriers {
		at[m.ID] = i
	}
	for _, r := range paths {
		for _, p := range [][]store.Movement{r.Path, r.DatePath} {
			for i, m := range p {
				if j, ok := at[m.ID]; ok {
					p[i] = carriers[j]
				}
			}
		}
	}
	return nil
}

func minDay(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxDay(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
