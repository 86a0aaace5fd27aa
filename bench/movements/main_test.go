package main

import (
	"testing"
	"time"

	"github.com/drover-registry/drover/bench/internal/cli/clitest"
)

// TestParseFlags checks the flags only: the benchmark itself is a program
// (go run ./bench/movements), never a timed test.
func TestParseFlags(t *testing.T) {
	t.Parallel()
	clitest.Parses(t, parseFlags, nil, options{Movements: 1_000_000, Holdings: 10_000, Duration: 15 * time.Second, Connections: 64})
	clitest.Parses(t, parseFlags, []string{"--database", "x.db", "--movements", "5", "--holdings", "20", "--duration", "2s",
		"--connections", "8", "--keep", "--skip-build"},
		options{Database: "x.db", Movements: 5, Holdings: 20, Duration: 2 * time.Second, Connections: 8, Keep: true, SkipBuild: true})
	clitest.Refuses(t, parseFlags, []string{"--holdings", "13"}, []string{"--movements", "0"}, []string{"--connections", "0"},
		[]string{"--skip-build"}, []string{"extra"})
}
