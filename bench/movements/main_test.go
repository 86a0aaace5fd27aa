package main

import (
	"io"
	"testing"
	"time"
)

// TestParseFlags checks the flags only: the benchmark itself is a program
// (go run ./bench/movements), never a timed test.
func TestParseFlags(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(nil, io.Discard)
	if err != nil || o.Movements != 1_000_000 || o.Holdings != 10_000 || o.Duration != 15*time.Second || o.Connections != 64 {
		t.Errorf("defaults = %+v, %v", o, err)
	}
	o, err = parseFlags([]string{"--database", "x.db", "--movements", "5", "--holdings", "20", "--duration", "2s",
		"--connections", "8", "--keep", "--skip-build"}, io.Discard)
	want := options{Database: "x.db", Movements: 5, Holdings: 20, Duration: 2 * time.Second, Connections: 8, Keep: true, SkipBuild: true}
	if err != nil || o != want {
		t.Errorf("parseFlags = %+v, %v; want %+v", o, err, want)
	}
	for _, bad := range [][]string{
		{"--holdings", "13"}, {"--movements", "0"}, {"--connections", "0"}, {"--skip-build"}, {"extra"},
	} {
		if _, err := parseFlags(bad, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		}
	}
}
