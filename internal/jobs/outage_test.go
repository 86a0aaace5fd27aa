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

func TestWaitGrowsToCap(t *testing.T) {
	t.Parallel()
	r := New(nil, Options{Poll: 500 * time.Millisecond})
	var got []time.Duration
	for streak := 1; streak <= 6; streak++ {
		got = append(got, r.wait(streak))
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
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

func TestIdleWaitGrowsToEightPolls(t *testing.T) {
	t.Parallel()
	r := New(nil, Options{Poll: 500 * time.Millisecond})
	var got []time.Duration
	for n := 1; n <= 6; n++ {
		got = append(got, r.idleWait(n))
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("idle waits (-want +got):\n%s", diff)
	}
}
