package jobs

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestWaitsGrowToCap: after failures (wait) and after looks that found
// nothing (idleWait), a worker waits Poll, doubling, up to 4 s (8 × Poll
// at the default Poll).
func TestWaitsGrowToCap(t *testing.T) {
	t.Parallel()
	r := New(nil, Options{Poll: 500 * time.Millisecond})
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
	for name, wait := range map[string]func(int) time.Duration{"wait": r.wait, "idleWait": r.idleWait} {
		var got []time.Duration
		for n := 1; n <= 6; n++ {
			got = append(got, wait(n))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// Many workers failing at once write one line, and the recovery one more.
func TestFailuresLogOncePerWait(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	r := New(nil, Options{Poll: time.Hour, Log: slog.New(slog.NewTextHandler(&buf, nil))})
	for range 16 {
		r.failed(1, errors.New("store down"))
	}
	r.succeeded()
	r.succeeded()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "failures=1") || !strings.Contains(lines[1], "failures=16") {
		t.Errorf("log:\n%s", buf.String())
	}
}
