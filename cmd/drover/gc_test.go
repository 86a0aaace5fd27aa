package main

import (
	"io"
	"log/slog"
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that serve's collector defaults apply only where the
// operator has set neither GOGC nor GOMEMLIMIT. Not parallel: the
// settings are the process's.
func TestTuneGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	debug.SetMemoryLimit(1 << 40)
	tuneGC(env(nil), quiet)
	if got := debug.SetGCPercent(100); got != defaultGCPercent {
		t.Errorf("GOGC unset: gc percent %d; want %d", got, defaultGCPercent)
	}
	if got := debug.SetMemoryLimit(1 << 40); got != defaultMemoryLimit {
		t.Errorf("GOMEMLIMIT unset: memory limit %d; want %d", got, defaultMemoryLimit)
	}

	// Set by the operator: Go has applied them at start; tuneGC leaves them.
	tuneGC(env(map[string]string{"GOGC": "100", "GOMEMLIMIT": "1TiB"}), quiet)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC=100: gc percent %d; want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("GOMEMLIMIT=1TiB: memory limit %d; want %d", got, int64(1<<40))
	}
}
