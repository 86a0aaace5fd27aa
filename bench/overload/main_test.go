package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/bench/internal/cli/clitest"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// The benchmark itself is a program (go run ./bench/overload), never a
// timed test: these check its flags, and that a tiny run goes through
// every phase and prints its table, whatever the figures.

func TestParseFlags(t *testing.T) {
	t.Parallel()
	clitest.Parses(t, parseFlags, nil, options{Duration: 20 * time.Second, Phase: 10 * time.Second, LightRate: 100,
		Connections: 64, Factor: 3, Outstanding: 2000, RateLimit: 1e6, Client: "raw", ControlOffered: 6900})
	clitest.Parses(t, parseFlags, []string{"--rate-limit", "2.5", "--factor", "1.5", "--client", "vegeta",
		"--control", "--control-offered", "5000"},
		options{Duration: 20 * time.Second, Phase: 10 * time.Second, LightRate: 100, Connections: 64, Factor: 1.5,
			Outstanding: 2000, RateLimit: 2.5, Client: "vegeta", Control: true, ControlOffered: 5000})
	clitest.Refuses(t, parseFlags, []string{"--factor", "0"}, []string{"--light-rate", "0"}, []string{"--connections", "0"},
		[]string{"--outstanding", "0"}, []string{"--phase", "0s"}, []string{"--rate-limit", "-1"}, []string{"--client", "curl"}, []string{"--control-offered", "0"},
		[]string{"extra"})
}

func TestTinyRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, database, client string }{
		{"sqlite", "", "raw"}, {"sqlite-vegeta", "", "vegeta"}, {"postgres", "postgres", "raw"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := tc.database
			if db != "" {
				db = storetest.PostgresURL(t) // skips unless DROVER_TEST_POSTGRES is set (fails in CI)
			}
			o := options{Database: db, Duration: time.Second, Phase: 500 * time.Millisecond, LightRate: 20,
				Connections: 4, Factor: 3, Outstanding: 32, RateLimit: 1e6, Client: tc.client}
			var out bytes.Buffer
			if err := run(context.Background(), o, nil, &out); err != nil {
				t.Fatalf("run: %v\n%s", err, out.String())
			}
			wants := []string{"| figure | value | target | |", "capacity with every limit off", "capacity at the defaults", "by limit | concurrency ", "admitted p99 / unloaded p99", "CPU during the overload", "server still up",
				"waits for a CPU (go_sched_latencies_seconds): unloaded | mean ", "… and during the overload | mean "}
			if tc.client == "raw" {
				wants = append(wants, "the same on the wire")
			}
			for _, want := range wants {
				if !strings.Contains(out.String(), want) {
					t.Errorf("report lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}
