package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/tracing"
)

// traceShown bounds the animals the exercise lists; it counts them all.
const traceShown = 20

// traceExercise runs the 24-hour traceability standard's two questions on
// one animal, given or picked at random among those that moved, and says
// how long each took: where the animal was over the last --days days, and
// where every animal that lived beside it then is now.
func traceExercise(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drover trace", flag.ContinueOnError)
	var dsn, animal, until string
	var days int
	databaseFlag(fs, &dsn)
	fs.StringVar(&animal, "animal", "", "the animal's tag; empty picks one that moved, at random")
	fs.StringVar(&until, "date", "", "the last day of the window, YYYY-MM-DD; empty is today")
	fs.IntVar(&days, "days", 30, "the days the window reaches back, 1 to 366")
	if err := parse(fs, args, getenv, stderr); err != nil {
		return err
	}
	if days < 1 || days > 366 {
		return fmt.Errorf("--days must be 1 to 366, not %d", days)
	}
	st, err := openCurrentStore(ctx, dsn) // an exercise changes nothing: no migration, no new file
	if err != nil {
		return err
	}
	defer st.Close()
	svc := tracing.New(st, time.Now)
	to := svc.Today()
	if until != "" {
		d, err := livestock.ParseDate(until)
		if err != nil {
			return fmt.Errorf("--date: %w", err)
		}
		to = d.Time()
	}
	from := to.AddDate(0, 0, 1-days)
	if animal == "" {
		if animal, err = st.PickAnimal(ctx, rand.Float64()); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "animal %s, %s to %s (%s)\n", animal, from.Format(time.DateOnly), to.Format(time.DateOnly), st.Dialect())

	start := time.Now()
	h, err := svc.AnimalHistory(ctx, animal)
	if err != nil {
		return err
	}
	var where []tracing.Stay
	for _, s := range h.Stays {
		if s.Overlaps(from, to) {
			where = append(where, s)
		}
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "1. its locations over the %d days: %d holding(s), in %v\n", days, len(where), took.Round(time.Microsecond))
	for _, s := range where {
		fmt.Fprintf(stdout, "   %s  from %s  to %s\n", s.Holding, s.From.Format(time.DateOnly), dayOr(s.To, "now"))
	}

	start = time.Now()
	res, err := svc.Trace(ctx, tracing.Query{Animal: animal, From: from, To: to, Direction: tracing.Forward})
	if err != nil {
		return err
	}
	took = time.Since(start)
	holdings := map[string]bool{}
	for _, c := range res.Animals {
		holdings[c.Animal.CPH.String()] = true
	}
	fmt.Fprintf(stdout, "2. the current location of every animal that resided with it: %d animal(s), now on %d holding(s), in %v\n",
		len(res.Animals), len(holdings), took.Round(time.Microsecond))
	for i, c := range res.Animals {
		if i == traceShown {
			fmt.Fprintf(stdout, "   … and %d more\n", len(res.Animals)-traceShown)
			break
		}
		fmt.Fprintf(stdout, "   %s  now on %s (%s)  met on %s from %s to %s\n", c.Animal.Identifier, c.Animal.CPH, c.Animal.State,
			c.Stay.Holding, c.Stay.From.Format(time.DateOnly), dayOr(c.Stay.To, "now"))
	}
	return nil
}

func dayOr(t time.Time, none string) string {
	if t.IsZero() {
		return none
	}
	return t.Format(time.DateOnly)
}
