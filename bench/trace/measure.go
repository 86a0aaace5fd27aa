package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/tracing"
)

// A question measured: its timings and what it reached.
type series struct {
	name    string
	target  time.Duration
	times   []time.Duration
	reached []int // holdings (traces), stays (histories), animals (registers)
	read    []int // movements read (traces)
}

func (s *series) add(d time.Duration, reached, read int) {
	s.times, s.reached, s.read = append(s.times, d), append(s.reached, reached), append(s.read, read)
}

func pct(list []time.Duration, p float64) time.Duration {
	s := slices.Clone(list)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func mean(list []int) float64 {
	t := 0
	for _, x := range list {
		t += x
	}
	return float64(t) / float64(max(1, len(list)))
}

// measured is what the questions read: the store's trace reads, and which
// database it is for the report.
type measured interface {
	store.TraceStore
	Dialect() string
}

// measure asks each question of random holdings, animals and windows in
// the last four years of the registry (so that every window has a full
// year of history behind it), and prints the table.
func measure(ctx context.Context, st measured, naiveDB *sql.DB, s shape, o options, out io.Writer) error {
	svc := tracing.New(st, time.Now)
	rnd := rand.New(rand.NewPCG(7, 22))
	window := func() (time.Time, time.Time) {
		to := firstDay.AddDate(1, 0, rnd.IntN(span-366))
		return to.AddDate(0, 0, -29), to
	}
	// A farm that moved animals: the source of a departure from a random
	// market's last month, so that the trace starts where trade is.
	farm := func(to time.Time) (livestock.CPH, error) {
		for range 100 {
			ms, err := st.MovementsTo(ctx, []livestock.CPH{livestock.MustCPH(cph(rnd.IntN(s.markets())))}, to.AddDate(0, 0, -29), to)
			if err != nil {
				return livestock.CPH{}, err
			}
			if len(ms) > 0 {
				return ms[rnd.IntN(len(ms))].Source, nil
			}
		}
		return livestock.CPH{}, fmt.Errorf("no market traded in the month to %s", to.Format(time.DateOnly))
	}
	trace := func(sr *series, holding livestock.CPH, from, to time.Time) error {
		start := time.Now()
		res, err := svc.Trace(ctx, tracing.Query{Holding: holding, From: from, To: to, Direction: tracing.Both, Hops: 3})
		if err != nil {
			return err
		}
		sr.add(time.Since(start), len(res.Holdings), res.Read)
		return nil
	}
	market := &series{name: "trace from a market (30 days, 3 hops, both)", target: time.Second}
	naive := &series{name: "naive baseline: the same trace from the window's movements read whole", target: time.Second}
	fromFarm := &series{name: "trace from a farm (30 days, 3 hops, both)", target: time.Second}
	history := &series{name: "an animal's history", target: 50 * time.Millisecond}
	register := &series{name: "a farm's register on a date", target: 50 * time.Millisecond}
	for i := range o.Rounds {
		from, to := window()
		m := cph(rnd.IntN(s.markets()))
		if err := trace(market, livestock.MustCPH(m), from, to); err != nil {
			return err
		}
		start := time.Now()
		reached, read, err := naiveTrace(ctx, naiveDB, m, from, to, 3)
		if err != nil {
			return err
		}
		naive.add(time.Since(start), reached, read)
		f, err := farm(to)
		if err != nil {
			return err
		}
		if err := trace(fromFarm, f, from, to); err != nil {
			return err
		}
		fmt.Fprintf(out, "\rtraces %d/%d", i+1, o.Rounds)
	}
	fmt.Fprintln(out)
	for range 10 * o.Rounds {
		id, err := st.PickAnimal(ctx, rnd.Float64())
		if err != nil {
			return err
		}
		start := time.Now()
		h, err := svc.AnimalHistory(ctx, id)
		if err != nil {
			return err
		}
		history.add(time.Since(start), len(h.Stays), len(h.Movements))

		_, to := window()
		f, err := farm(to)
		if err != nil {
			return err
		}
		start = time.Now()
		reg, err := svc.RegisterOn(ctx, f, to.AddDate(0, 0, -rnd.IntN(30)))
		if err != nil {
			return err
		}
		register.add(time.Since(start), len(reg.Animals), 0)
	}
	fmt.Fprintf(out, "\n%s, %d movements, %d holdings (%d markets)\n\n", st.Dialect(), s.Movements, s.Holdings, s.markets())
	fmt.Fprintf(out, "| question | runs | p50 | p99 | target p99 | mean reached | mean movements read |\n|---|---|---|---|---|---|---|\n")
	for _, sr := range []*series{market, naive, fromFarm, history, register} {
		verdict := "met"
		if pct(sr.times, 0.99) > sr.target {
			verdict = "MISSED"
		}
		fmt.Fprintf(out, "| %s | %d | %v | %v | %v (%s) | %.0f | %.0f |\n", sr.name, len(sr.times), pct(sr.times, 0.5).Round(10*time.Microsecond),
			pct(sr.times, 0.99).Round(10*time.Microsecond), sr.target, verdict, mean(sr.reached), mean(sr.read))
	}
	return nil
}
