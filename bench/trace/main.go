// Command trace is Drover's benchmark of outbreak tracing at national
// scale. It builds a synthetic registry shaped like a real one (about
// 100,000 holdings, markets as the hubs most movements pass through,
// movements over five years, tagged cattle and batches of sheep) straight
// into the store's tables, then measures, in process through Drover's own
// store and tracing package, the questions an inspector asks on the day a
// disease is confirmed: a 30-day, 3-hop trace in both directions from a
// market and from a farm, an animal's history, and a holding's register on
// a date, each with its p50 and p99.
//
//	go run ./bench/trace                                   # SQLite, 1M movements
//	go run ./bench/trace --movements 10000000 --keep
//	go run ./bench/trace --database 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable'
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/drover-registry/drover/bench/internal/cli"
	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// options are the flags of the benchmark.
type options struct {
	Database  string // SQLite file path, or postgres:// URL; "" is a temporary SQLite file
	Movements int
	Holdings  int
	Rounds    int // of each trace; history and register run ten times as many
	Keep      bool
	SkipBuild bool
	Profile   string // CPU profile of the measurements, when set
}

func parseFlags(args []string, out io.Writer) (options, error) {
	var o options
	fs := cli.Flags("trace", out, &o.Database)
	fs.IntVar(&o.Movements, "movements", 1_000_000, "movements to build")
	fs.IntVar(&o.Holdings, "holdings", 100_000, "holdings (1 in 500 a market, 1 in 1,000 an abattoir)")
	fs.IntVar(&o.Rounds, "rounds", 30, "traces of each kind to time; histories and registers ten times as many")
	fs.BoolVar(&o.Keep, "keep", false, "keep the database at the end (to reuse with --skip-build)")
	fs.StringVar(&o.Profile, "cpuprofile", "", "write a CPU profile of the measurements (not the build) to this file")
	fs.BoolVar(&o.SkipBuild, "skip-build", false, "measure a database kept by an earlier run (--database must name it)")
	if err := cli.Parse(fs, args); err != nil {
		return o, err
	}
	switch {
	case o.Movements < 1000 || o.Holdings < 2000:
		return o, fmt.Errorf("--movements must be at least 1,000 and --holdings at least 2,000")
	case o.Rounds < 1:
		return o, fmt.Errorf("--rounds must be positive")
	case o.SkipBuild && o.Database == "":
		return o, fmt.Errorf("--skip-build needs --database naming a kept database")
	}
	return o, nil
}

func main() { cli.Main(parseFlags, run) }

// run is the whole benchmark: database, build, measurements, report.
func run(ctx context.Context, o options, args []string, out io.Writer) error {
	db, err := database.Open(ctx, "trace", o.Database, o.SkipBuild)
	if err != nil {
		return err
	}
	defer func() {
		if kept, err := db.Close(ctx, o.Keep || o.SkipBuild); err != nil {
			fmt.Fprintln(out, "bench:", err)
		} else if kept {
			fmt.Fprintf(out, "kept; measure it again with: go run ./bench/trace --skip-build --movements %d --holdings %d --database '%s'\n",
				o.Movements, o.Holdings, db.DSN)
		}
	}()
	fmt.Fprintf(out, "database: %s\n", db.Describe())
	// The store is opened first for its migrations, then closed while the
	// build writes on a connection of its own.
	st, err := open(ctx, db)
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	s := shape{Holdings: o.Holdings, Movements: o.Movements}
	if !o.SkipBuild {
		fmt.Fprintf(out, "building %d movements over %d holdings (%d markets)…\n", o.Movements, o.Holdings, s.markets())
		start := time.Now()
		if db.Postgres {
			err = copyPostgres(ctx, db.DSN, s)
		} else {
			err = insertSQLite(ctx, db.DSN, s)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "built in %s\n", time.Since(start).Round(time.Second))
	}
	if st, err = open(ctx, db); err != nil {
		return err
	}
	defer st.Close()
	naive, err := db.SQL()
	if err != nil {
		return err
	}
	defer naive.Close()
	if o.Profile != "" {
		f, err := os.Create(o.Profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	return measure(ctx, st, naive, s, o, out)
}

// open opens the store with Drover's own Open, which applies its
// migrations: the tables and indexes measured are the service's.
func open(ctx context.Context, db *database.Target) (store.Store, error) {
	if db.Postgres {
		return postgres.Open(ctx, db.DSN)
	}
	return sqlite.Open(ctx, db.DSN)
}
