package retention

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// save keeps a reply for each of the given ages at t0, named by position.
func save(t *testing.T, s store.Store, ages ...time.Duration) {
	t.Helper()
	err := s.InTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
		for i, age := range ages {
			r := store.Reply{UserName: "keeper1", CorrelationID: fmt.Sprintf("c-%d", i), RequestHash: "h",
				Status: 201, Body: []byte(`{}`), CreatedAt: t0.Add(-age)}
			if err := tx.SaveReply(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// kept lists which of the replies save wrote are still there.
func kept(t *testing.T, s store.Store, n int) []int {
	t.Helper()
	var ids []int
	for i := range n {
		_, err := s.Reply(t.Context(), "keeper1", fmt.Sprintf("c-%d", i))
		switch {
		case err == nil:
			ids = append(ids, i)
		case !livestock.IsNotFound(err):
			t.Fatal(err)
		}
	}
	return ids
}

// counting is the real store, counting the batches asked of it.
type counting struct {
	store.Store
	calls int
}

func (c *counting) DeleteRepliesBefore(ctx context.Context, before time.Time, limit int) (int, error) {
	c.calls++
	return c.Store.DeleteRepliesBefore(ctx, before, limit)
}

// logLines decodes the JSON log lines written to buf.
func logLines(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		lines = append(lines, m)
	}
	return lines
}

func TestSweep(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	tests := []struct {
		name    string
		ages    []time.Duration
		batch   int
		deleted int
		calls   int // a sweep stops at the first short batch
		kept    []int
	}{
		{"none", nil, 2, 0, 1, nil},
		{"none expired", []time.Duration{0, day - time.Second}, 2, 0, 1, []int{0, 1}},
		{"short last batch", []time.Duration{8 * day, day + time.Hour, 30 * day, day, 0, 2 * day, 9 * day}, 2, 5, 3, []int{3, 4}},
		{"full last batch", []time.Duration{2 * day, 3 * day, 4 * day, 5 * day, time.Hour}, 2, 4, 3, []int{4}},
		{"one batch", []time.Duration{2 * day, 3 * day, time.Hour}, 1000, 2, 1, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			storetest.Each(t, func(t *testing.T, s store.Store) {
				save(t, s, tt.ages...)
				var buf bytes.Buffer
				st := &counting{Store: s}
				sw := New("replies", st.DeleteRepliesBefore, Options{Retention: day, Batch: tt.batch, Now: func() time.Time { return t0 },
					Log: slog.New(slog.NewJSONHandler(&buf, nil))})
				n, err := sw.Sweep(t.Context())
				if err != nil || n != tt.deleted || st.calls != tt.calls {
					t.Errorf("Sweep = %d, %v in %d batches; want %d in %d", n, err, st.calls, tt.deleted, tt.calls)
				}
				if diff := cmp.Diff(tt.kept, kept(t, s, len(tt.ages))); diff != "" {
					t.Errorf("replies kept (-want +got):\n%s", diff)
				}
				lines := logLines(t, &buf)
				if len(lines) != 1 || lines[0]["deleted"] != float64(tt.deleted) || lines[0]["level"] != "INFO" {
					t.Errorf("log = %v, want one INFO line with deleted %d", lines, tt.deleted)
				}
			})
		})
	}
}

// TestSweepFails logs a warning and returns the error when the store
// cannot delete.
func TestSweepFails(t *testing.T) {
	t.Parallel()
	s := storetest.OpenSQLite(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	sw := New("replies", s.DeleteRepliesBefore, Options{Retention: time.Hour, Log: slog.New(slog.NewJSONHandler(&buf, nil))})
	if _, err := sw.Sweep(t.Context()); err == nil {
		t.Error("Sweep on a closed store: no error")
	}
	if lines := logLines(t, &buf); len(lines) != 1 || lines[0]["level"] != "WARN" {
		t.Errorf("log = %v, want one WARN line", lines)
	}
}

// TestRun sweeps at start and then at each tick's time, until the context ends.
func TestRun(t *testing.T) {
	t.Parallel()
	s := storetest.OpenSQLite(t)
	save(t, s, 48*time.Hour, 0) // c-0 expired at t0, c-1 a day after
	sw := New("replies", s.DeleteRepliesBefore, Options{Retention: 24 * time.Hour, Now: func() time.Time { return t0 }})
	ctx, cancel := context.WithCancel(t.Context())
	tick, done := make(chan time.Time), make(chan struct{})
	go func() {
		defer close(done)
		sw.run(ctx, tick)
	}()
	// Each send returns once run is waiting again: the sweep before it is over.
	tick <- t0.Add(time.Hour)
	if got := kept(t, s, 2); !cmp.Equal(got, []int{1}) {
		t.Errorf("after the first sweep, kept %v; want [1]", got)
	}
	tick <- t0.Add(25 * time.Hour)
	tick <- t0.Add(26 * time.Hour)
	if got := kept(t, s, 2); len(got) != 0 {
		t.Errorf("after a tick a day later, kept %v; want none", got)
	}
	cancel()
	<-done
}

// TestRunForever keeps replies when the retention is zero: Run returns at once.
func TestRunForever(t *testing.T) {
	t.Parallel()
	s := storetest.OpenSQLite(t)
	save(t, s, 365*24*time.Hour)
	New("replies", s.DeleteRepliesBefore, Options{}).Run(t.Context())
	if got := kept(t, s, 1); !cmp.Equal(got, []int{0}) {
		t.Errorf("with retention 0, kept %v; want [0]", got)
	}
}
