// Command movements is Drover's benchmark of the movements interface on a
// registry of a million movements. It is a program, not a test: it builds
// the registry with bulk SQL, starts the real binary on it, and measures
// what a keeper and an inspector feel (POST throughput and latency against
// a naive one-insert-per-request server on the same database and against
// the same binary with every limit off, a month of
// a keeper's requests, the 1,000th page of everything, the server's peak
// memory), printing a table with the targets.
//
//	go run ./bench/movements                                  # SQLite, 1M movements
//	go run ./bench/movements --database 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable'
package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/cli"
	"github.com/drover-registry/drover/bench/internal/report"
)

// options are the flags of the benchmark.
type options struct {
	Database    string // SQLite file path, or postgres:// URL; "" is a temporary SQLite file
	Movements   int
	Holdings    int
	Duration    time.Duration // of each POST load
	Connections int           // of each POST load
	Keep        bool          // keep the database (file or schema) at the end
	SkipBuild   bool          // reuse a kept database
	RandomIDs   bool          // a random UUID as each POST's correlation id and trackingId
}

func parseFlags(args []string, out io.Writer) (options, error) {
	var o options
	fs := cli.Flags("movements", out, &o.Database)
	fs.IntVar(&o.Movements, "movements", 1_000_000, "movements (transfer requests) to build")
	fs.IntVar(&o.Holdings, "holdings", 10_000, "holdings the movements are spread over")
	fs.DurationVar(&o.Duration, "duration", 15*time.Second, "length of each POST load")
	fs.IntVar(&o.Connections, "connections", 64, "concurrent connections of each POST load")
	fs.BoolVar(&o.Keep, "keep", false, "keep the database at the end (to reuse with --skip-build)")
	fs.BoolVar(&o.SkipBuild, "skip-build", false, "measure a database kept by an earlier run (--database must name it)")
	fs.BoolVar(&o.RandomIDs, "random-ids", false, "send a random UUID as each POST's correlation id and trackingId, as a client making UUIDv4 ids does (default: ids in the order sent)")
	if err := cli.Parse(fs, args); err != nil {
		return o, err
	}
	switch {
	case o.Movements < 1 || o.Holdings < 2*benchHoldings || o.Holdings > 10_000_000:
		return o, fmt.Errorf("--movements must be positive and --holdings from %d to 10,000,000", 2*benchHoldings)
	case o.Duration <= 0 || o.Connections < 1:
		return o, fmt.Errorf("--duration and --connections must be positive")
	case o.SkipBuild && o.Database == "":
		return o, fmt.Errorf("--skip-build needs --database naming a kept database")
	}
	return o, nil
}

func main() { cli.Main(parseFlags, run) }

// run is the whole benchmark: database, build, server, loads, report.
func run(ctx context.Context, o options, args []string, out io.Writer) (err error) {
	rep := results{Header: report.Begin("movements", args), Options: o}
	db, err := openTarget(ctx, o)
	if err != nil {
		return err
	}
	defer closeTarget(ctx, db, o.Keep || o.SkipBuild, out)
	rep.Dialect = db.Dialect()
	fmt.Fprintf(out, "database: %s\n", db.Describe())
	bin, err := benchserver.BuildBinary(ctx, filepath.Join(db.Dir, "drover"))
	if err != nil {
		return err
	}
	if !o.SkipBuild {
		fmt.Fprintf(out, "building %d movements over %d holdings…\n", o.Movements, o.Holdings)
		if rep.Build, err = build(ctx, db, o); err != nil {
			return err
		}
		fmt.Fprintf(out, "built in %s\n", rep.Build.Round(time.Millisecond))
	} else if db.Postgres {
		fmt.Fprintln(out, "vacuuming what earlier runs left…")
		if err := vacuumPostgres(ctx, db.DSN); err != nil {
			return fmt.Errorf("vacuum: %w", err)
		}
	}
	serve := []string{"--database", db.DSN, "--max-page", "100"}
	if err := measurePosts(ctx, o, db, bin, serve, &rep, out); err != nil {
		return err
	}
	srv, err := benchserver.Start(ctx, bin, filepath.Join(db.Dir, "drover.log"), append(serve, benchserver.AtDefaults...)...)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Fprintf(out, "server at its defaults for the reads %s\n", srv)
	if err := measureReads(ctx, o, srv, &rep, out); err != nil {
		return err
	}
	rep.print(out)
	return nil
}
