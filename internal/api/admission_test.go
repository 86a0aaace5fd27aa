package api

import (
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// feed runs one window of n requests through l, conc at a time, each
// taking rtt, on a synthetic clock: no sleeps, so the limit it leaves is
// arithmetic, not timing.
func feed(t *testing.T, l *adaptiveLimit, clock *time.Time, n, conc int, rtt time.Duration) {
	t.Helper()
	start := *clock
	for done := 0; done < n; {
		k := 0
		for k < conc && done+k < n && l.acquire() {
			k++
		}
		if k == 0 {
			t.Fatalf("nothing admitted at limit %v", l.current())
		}
		for range k {
			l.release(start.Add(windowTime*time.Duration(done)/time.Duration(n-1)), rtt, true)
			done++
		}
	}
	*clock = start.Add(windowTime + time.Millisecond)
}

func TestAdaptiveLimit(t *testing.T) {
	t.Parallel()
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	l := newAdaptiveLimit(32, 16, 64)
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var got []float64
	for _, w := range []struct {
		conc int
		rtt  time.Duration
	}{
		{32, ms(1)},   // the first window sets the baseline: no change
		{32, ms(1)},   // fast and the limit in use: +1
		{32, ms(1)},   // +1
		{4, ms(1)},    // fast, but a tenth of the limit in use: no change
		{32, ms(3)},   // over twice the baseline, but the limit (34) did not bind: held
		{64, ms(3)},   // over twice the baseline and binding: × 0.75
		{64, ms(3)},   // × 0.75
		{64, ms(3)},   // × 0.75, held at the floor
		{64, ms(1.5)}, // under twice the baseline: +1
		{64, ms(1)},   // +1
	} {
		feed(t, l, &clock, 40, w.conc, w.rtt)
		got = append(got, l.current())
	}
	want := []float64{32, 33, 34, 34, 34, 25, 19, 16, 17, 18}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("limits after each window (-want +got):\n%s", diff)
	}
}

// TestAdaptiveBaseline checks that a lasting queue lifts the baseline only
// a little while faster answers lower it at once.
func TestAdaptiveBaseline(t *testing.T) {
	t.Parallel()
	l := newAdaptiveLimit(32, 16, 64)
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	feed(t, l, &clock, 40, 64, time.Millisecond)
	for range 100 {
		feed(t, l, &clock, 40, 64, 3*time.Millisecond)
	}
	if b := l.baseline; b < time.Millisecond || b > 1300*time.Microsecond {
		t.Errorf("after 100 slow windows the baseline is %v; want it barely above 1ms", b)
	}
	if l.current() != 16 {
		t.Errorf("after 100 slow windows the limit is %v; want the floor, 16", l.current())
	}
	for range 10 {
		feed(t, l, &clock, 20, 16, 500*time.Microsecond)
	}
	if b := l.baseline; b > 600*time.Microsecond {
		t.Errorf("after 10 fast windows the baseline is %v; want under 0.6ms", b)
	}
}

// TestAdaptiveLightLoad checks that slow answers to a light load, which
// never reaches the limit, leave it where it is: at a floor of 1, cutting
// it on their noise would refuse the second of two requests at once.
func TestAdaptiveLightLoad(t *testing.T) {
	t.Parallel()
	l := newAdaptiveLimit(16, 1, 64)
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	feed(t, l, &clock, 20, 2, time.Millisecond)
	for i := range 50 {
		feed(t, l, &clock, 20, 2, time.Duration(3+i%7)*time.Millisecond)
	}
	if l.current() != 16 {
		t.Errorf("after 50 slow windows of 2 requests at once the limit is %v; want it still 16", l.current())
	}
}

func TestAdaptiveAcquire(t *testing.T) {
	t.Parallel()
	l := newAdaptiveLimit(3, 1, 10)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var got []bool
	for range 4 {
		got = append(got, l.acquire())
	}
	// A sample-less release frees a slot but starts no window.
	l.release(now, time.Hour, false)
	got = append(got, l.acquire(), l.acquire())
	if diff := cmp.Diff([]bool{true, true, true, false, true, false}, got); diff != "" {
		t.Errorf("acquire (-want +got):\n%s", diff)
	}
	if len(l.samples) != 0 || l.baseline != 0 {
		t.Errorf("a release without a sample was counted: %v, baseline %v", l.samples, l.baseline)
	}
}

// TestAdmit checks the middleware: with the write limit reached, the next
// write is refused at once with 503, Retry-After and a problem body, and
// counted, while a read, of the other class, still passes.
func TestAdmit(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler), metrics: newMetrics(nil),
		admission: &admission{write: newAdaptiveLimit(1, 1, 1), read: newAdaptiveLimit(1, 1, 1)}}
	s.metrics.watchLimits(s.admission)
	entered, release := make(chan struct{}), make(chan struct{})
	h := s.admit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Block") != "" {
			close(entered)
			<-release
		}
		w.WriteHeader(http.StatusCreated)
	}))
	var wg sync.WaitGroup
	wg.Go(func() {
		req := httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", nil)
		req.Header.Set("Block", "yes")
		h.ServeHTTP(httptest.NewRecorder(), req)
	})
	<-entered
	over := httptest.NewRecorder()
	h.ServeHTTP(over, httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", nil))
	read := httptest.NewRecorder()
	h.ServeHTTP(read, httptest.NewRequest(http.MethodGet, "/v1/TransferRequests", nil))
	close(release)
	wg.Wait()
	after := httptest.NewRecorder()
	h.ServeHTTP(after, httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", nil))

	if over.Code != http.StatusServiceUnavailable || over.Header().Get("Retry-After") != "1" ||
		over.Header().Get("Content-Type") != "application/json" ||
		!strings.Contains(over.Body.String(), `"R003"`) || !strings.Contains(over.Body.String(), "write requests in flight") {
		t.Errorf("write over the limit = %d %v %s; want 503, Retry-After 1, the movements error body with R003", over.Code, over.Header(), over.Body)
	}
	if read.Code != http.StatusCreated || after.Code != http.StatusCreated {
		t.Errorf("read during the write = %d, write after it = %d; want both admitted", read.Code, after.Code)
	}
	scrape := httptest.NewRecorder()
	s.metrics.handler().ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, want := range []string{`drover_http_admission_rejected_total{class="write"} 1`, `drover_http_concurrency_limit{class="read"} 1`} {
		if !strings.Contains(scrape.Body.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestAdaptiveSaturated checks that a saturated CPU shrinks the limit
// even while the requests admitted are fast.
func TestAdaptiveSaturated(t *testing.T) {
	t.Parallel()
	l := newAdaptiveLimit(32, 8, 64)
	sched := []time.Duration{0, time.Millisecond, 10 * time.Millisecond, 10 * time.Millisecond, time.Millisecond}
	l.sched = func() time.Duration {
		d := sched[0]
		sched = sched[1:]
		return d
	}
	clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var got []float64
	for range 5 {
		feed(t, l, &clock, 40, 64, time.Millisecond)
		got = append(got, l.current())
	}
	if diff := cmp.Diff([]float64{32, 33, 24, 18, 19}, got); diff != "" {
		t.Errorf("limits after each window (-want +got):\n%s", diff)
	}
}

func TestHistQuantile(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	buckets := []float64{math.Inf(-1), 0.001, 0.002, 0.005, inf}
	for _, tc := range []struct {
		counts []uint64
		want   float64
	}{
		{[]uint64{0, 0, 0, 0}, 0},
		{[]uint64{0, 100, 0, 0}, 0.002},
		{[]uint64{0, 98, 1, 1}, 0.005},
		{[]uint64{0, 99, 1, 0}, 0.002},
		{[]uint64{0, 50, 0, 50}, 0.005}, // the open last bucket: its lower bound
	} {
		var total uint64
		for _, c := range tc.counts {
			total += c
		}
		if got := histQuantile(tc.counts, buckets, total, 0.99); got != tc.want {
			t.Errorf("histQuantile(%v) = %v, want %v", tc.counts, got, tc.want)
		}
	}
	// The real histogram reads without error, and twice in a row.
	w := newSchedWatch()
	_, _ = w.p99(), w.p99()
}
