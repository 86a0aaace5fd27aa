package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
)

// TestDebugProfiler: --debug-addr serves the profiler, and nothing is
// served without it.
func TestDebugProfiler(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if addr, err := startDebug(ctx, "", log); addr != "" || err != nil {
		t.Fatalf("startDebug(\"\") = %q, %v; want nothing served", addr, err)
	}
	addr, err := startDebug(ctx, "127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + addr + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET /debug/pprof/cmdline = %d, want 200", res.StatusCode)
	}
	if _, err := startDebug(ctx, "not an address", log); err == nil {
		t.Error("startDebug accepted a bad address")
	}
}
