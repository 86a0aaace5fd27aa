// Command registration is Drover's benchmark of animal registration
// (issue 4). It is a program, not a test: it builds the real binary, starts
// it on a new database, issues keeper1's herds enough ear tags for the
// run, and measures
//
//   - async POST /v1/animals offered at a fixed rate (an open loop): the
//     time from the 202 to Completed, as the registrations table records
//     it (updated_date − request_date), read from the database once the
//     queue has drained, so the server's one-poll-per-retry-after rule is
//     never broken;
//   - sync POST /v1/animals offered at the same rate (an open loop): the
//     issue's sync p99 target is held here, at the issue's load;
//   - sync POST /v1/animals from 64 connections, each sending its next
//     request when its last is answered (a closed loop): the throughput,
//     whose p99 is reported only, since a closed loop at saturation waits
//     by Little's law (connections ÷ throughput) whatever the server;
//   - sync POST /v1/animals from one connection;
//   - a naive server in this program, one INSERT a request into the same
//     kind of database at the same durability, measured as the sync load;
//   - the server's peak memory: its own (RssAnon) and all it held (VmHWM);
//
// and prints a table with the targets.
//
//	go run ./bench/registration                       # SQLite in a temporary file
//	go run ./bench/registration --database 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable'
package main

import (
	_ "time/tzdata" // dates are the UK's

	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/cli"
	"github.com/drover-registry/drover/bench/internal/report"
)

// options are the flags of the benchmark.
type options struct {
	Database    string        // SQLite file path or postgres:// URL; "" is a temporary SQLite file
	Duration    time.Duration // of each load
	Rate        int           // async requests offered per second
	Connections int           // of the sync and baseline loads
	Workers     int           // drover serve --workers; 0 leaves its default
}

func parseFlags(args []string, out io.Writer) (options, error) {
	var o options
	fs := cli.Flags("registration", out, &o.Database)
	fs.DurationVar(&o.Duration, "duration", 20*time.Second, "length of each load")
	fs.IntVar(&o.Rate, "rate", 1000, "async registrations offered per second")
	fs.IntVar(&o.Connections, "connections", 64, "concurrent connections of the sync and baseline loads")
	fs.IntVar(&o.Workers, "workers", 0, "drover serve --workers (0: the server's default)")
	if err := cli.Parse(fs, args); err != nil {
		return o, err
	}
	switch {
	case o.Duration <= 0 || o.Rate < 1 || o.Connections < 1 || o.Workers < 0:
		return o, fmt.Errorf("--duration, --rate and --connections must be positive, --workers not negative")
	case 2*o.Rate*int(o.Duration.Seconds()) > supply: // the async load and the sync one at the same rate
		return o, fmt.Errorf("2 × --rate × --duration is more than the %d identifiers the herds can be issued", supply)
	}
	return o, nil
}

func main() { cli.Main(parseFlags, run) }

// run is the whole benchmark: database, server, tags, loads, report.
func run(ctx context.Context, o options, args []string, out io.Writer) error {
	rep := results{Header: report.Begin("registration", args), Options: o}
	db, err := openTarget(ctx, o.Database)
	if err != nil {
		return err
	}
	defer db.close(context.WithoutCancel(ctx), out)
	rep.Dialect = db.Dialect()
	fmt.Fprintf(out, "database: %s\n", db.Describe())
	bin, err := benchserver.BuildBinary(ctx, filepath.Join(db.Dir, "drover"))
	if err != nil {
		return err
	}
	srv, err := benchserver.Start(ctx, bin, filepath.Join(db.Dir, "drover.log"), serveArgs(db.DSN, o.Workers)...)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Fprintf(out, "server %s\n", srv)
	if err := db.issueTags(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "issued %d more tags to %d herds of keeper1\n", supply, len(herds))
	if err := measure(ctx, o, db, srv, &rep, out); err != nil {
		return err
	}
	rep.print(out)
	return nil
}

// serveArgs are the settings the server runs with: the database, every
// limit off (it measures the work, not the refusals), and the
// job workers when --workers asks for a number.
func serveArgs(dsn string, workers int) []string {
	args := append([]string{"--database", dsn}, benchserver.LimitsOff...)
	if workers > 0 {
		args = append(args, "--workers", strconv.Itoa(workers))
	}
	return args
}
