// Command overload is Drover's overload benchmark (issue 5: at three times
// its capacity the server stays up, answers the excess promptly with 429
// or 503, keeps the p99 of the requests it admits within twice its
// unloaded value, and its memory stays bounded). It is a program, not a
// test: it builds the real binary and, with a mix of POST
// /v1/TransferRequests by two keepers and GET listings by a keeper and the
// inspector,
//
//   - starts it with every limit off (benchserver.LimitsOff), on a
//     database of its own, and warms it up (a closed loop of 8
//     connections); its capacity is what the machine can carry;
//
// then starts it on a new database at its default settings (only the
// per-user rate limit raised: benchserver.AtDefaults), and
//
//   - warms up (a closed loop of 8 connections);
//   - measures the unloaded latency at a light fixed rate (an open loop);
//   - measures the capacity of both servers in turns: 2xx answers a
//     second from 64 connections, each sending its next request when its
//     last is answered (50 ms after, when it was refused); then stops the
//     one with the limits off;
//   - offers --factor (3) times the capacity with the limits off in an
//     open loop, with a bounded number of requests outstanding;
//
// and prints the capacity at the defaults against the one with the limits
// off, the offered and admitted rates, the refusals and how fast
// they came, the admitted p99 against the unloaded one, the server's peak
// memory (its own, RssAnon, and all it held, VmHWM) and whether it is
// still up, with the targets.
//
//	go run ./bench/overload                       # SQLite in a temporary file
//	go run ./bench/overload --database 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable'
//	go run ./bench/overload --control --control-offered 6900   # the same loads to a server that does nothing
//
// The control (control.go) measures what the machine leaves: the same
// generator and mix against a null server, at the rate an overload
// offered.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/drover-registry/drover/bench/internal/cli"
)

// options are the flags of the benchmark.
type options struct {
	Database    string        // SQLite file path or postgres:// URL; "" is a temporary SQLite file
	Duration    time.Duration // of the overload
	Phase       time.Duration // of the warm-up, the unloaded and the capacity loads
	LightRate   int           // requests a second of the unloaded load
	Connections int           // of the capacity load
	Factor      float64       // overload offered, in capacities
	Outstanding int           // most requests waiting at once during the overload
	RateLimit   float64       // drover serve --rate-limit; 0 is off
	Client      string        // "raw" (rawhttp) or "vegeta": what sends the loads

	Control        bool // send the loads to the null server instead (control.go)
	ControlOffered int  // requests a second of the control's overload
}

func parseFlags(args []string, out io.Writer) (options, error) {
	var o options
	fs := cli.Flags("overload", out, &o.Database)
	fs.DurationVar(&o.Duration, "duration", 20*time.Second, "length of the overload")
	fs.DurationVar(&o.Phase, "phase", 10*time.Second, "length of the warm-up, the unloaded load and the capacity load, each")
	fs.IntVar(&o.LightRate, "light-rate", 100, "requests a second of the unloaded load")
	fs.IntVar(&o.Connections, "connections", 64, "connections of the capacity load")
	fs.Float64Var(&o.Factor, "factor", 3, "overload offered, in capacities")
	fs.IntVar(&o.Outstanding, "outstanding", 2000, "most requests waiting for an answer at once during the overload")
	fs.Float64Var(&o.RateLimit, "rate-limit", 1e6, "the server's per-user --rate-limit; raised out of the way by default, since three users send the whole load; 0 is off")
	fs.StringVar(&o.Client, "client", "raw", `what sends the loads: "raw" (bench/internal/rawhttp, the cheaper) or "vegeta" (vegeta's open loop, net/http's closed loop)`)
	fs.BoolVar(&o.Control, "control", false, "send the unloaded load and the overload to a null server that does no work, to measure what the machine leaves (no Drover, no database)")
	fs.IntVar(&o.ControlOffered, "control-offered", 6900, "with --control: requests a second of the overload (the rate a Drover overload offered)")
	if err := cli.Parse(fs, args); err != nil {
		return o, err
	}
	switch {
	case o.Duration <= 0 || o.Phase <= 0 || o.LightRate < 1 || o.Connections < 1 || o.Factor <= 0 || o.Outstanding < 1 ||
		o.ControlOffered < 1:
		return o, fmt.Errorf("--duration, --phase, --light-rate, --connections, --factor, --outstanding and --control-offered must be positive")
	case o.RateLimit < 0:
		return o, fmt.Errorf("--rate-limit must not be negative")
	case o.Client != "raw" && o.Client != "vegeta":
		return o, fmt.Errorf(`--client must be "raw" or "vegeta"`)
	}
	return o, nil
}

func main() {
	if os.Getenv(nullServerEnv) != "" {
		if err := serveNull(os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "null server:", err)
			os.Exit(1)
		}
		return
	}
	cli.Main(parseFlags, run)
}
