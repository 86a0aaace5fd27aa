package load

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// ms is milliseconds as durations.
func ms(ns ...int) (d []time.Duration) {
	for _, n := range ns {
		d = append(d, time.Duration(n)*time.Millisecond)
	}
	return d
}

func TestQuantile(t *testing.T) {
	t.Parallel()
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, tc := range []struct {
		name   string
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{"none", nil, 0.5, 0},
		{"one", ms(7), 0.99, 7 * time.Millisecond},
		{"p50 of two", ms(1, 2), 0.5, time.Millisecond},
		{"p50 of three", ms(1, 2, 3), 0.5, 2 * time.Millisecond},
		{"p0", ms(1, 2, 3), 0, time.Millisecond},
		{"p100", ms(1, 2, 3), 1, 3 * time.Millisecond},
		{"p50 of 100", ms(hundred...), 0.5, 50 * time.Millisecond},
		{"p99 of 100", ms(hundred...), 0.99, 99 * time.Millisecond},
	} {
		if got := Quantile(tc.sorted, tc.q); got != tc.want {
			t.Errorf("%s: Quantile(%v, %v) = %v; want %v", tc.name, tc.sorted, tc.q, got, tc.want)
		}
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	s := Stats{OK: 50, Elapsed: 2 * time.Second, Failures: map[string]int{"a": 2, "b": 3}}
	if s.Rate() != 25 || s.Failed() != 5 {
		t.Errorf("Rate, Failed = %v, %d; want 25, 5", s.Rate(), s.Failed())
	}
}

// TestAdd puts two loads together: the quantiles are those of both
// loads' latencies, not a mean of each load's.
func TestAdd(t *testing.T) {
	t.Parallel()
	a := Stats{OK: 3, Elapsed: time.Second, Failures: map[string]int{"x": 1}, latencies: ms(1, 2, 3)}
	b := Stats{OK: 1, Elapsed: 3 * time.Second, Failures: map[string]int{"x": 2, "y": 1}, latencies: ms(100)}
	got := a.Add(b)
	if got.OK != 4 || got.Elapsed != 4*time.Second || got.Rate() != 1 || got.Failed() != 4 {
		t.Errorf("OK, Elapsed, Rate, Failed = %d, %v, %v, %d; want 4, 4s, 1, 4", got.OK, got.Elapsed, got.Rate(), got.Failed())
	}
	if got.P50 != 2*time.Millisecond || got.P99 != 100*time.Millisecond {
		t.Errorf("P50, P99 = %v, %v; want 2ms, 100ms", got.P50, got.P99)
	}
	if zero := (Stats{}).Add(a); zero.P99 != 3*time.Millisecond || zero.OK != 3 {
		t.Errorf("the zero Stats and a: %+v", zero)
	}
	if len(a.latencies) != 3 {
		t.Errorf("Add changed its receiver's latencies: %v", a.latencies)
	}
}

// TestSend sends a counted load to a local server that answers odd
// requests 201 and even ones 500, and checks the tally (not the times).
func TestSend(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("odd") == "1" {
			w.WriteHeader(http.StatusCreated)
			return
		}
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer srv.Close()
	var n int
	next := func(t *vegeta.Target) error {
		n++
		*t = vegeta.Target{Method: http.MethodGet, URL: srv.URL + "/?odd=" + map[bool]string{true: "1", false: "0"}[n%2 == 1]}
		return nil
	}
	seen := 0
	got := Run{Attacker: ClosedAttacker(1), Pacer: Count(10), Duration: time.Minute, Want: http.StatusCreated,
		Key: func(r *vegeta.Result) string { return r.URL[len(r.URL)-1:] }, Each: func(*vegeta.Result) { seen++ }}.Send(next)
	counts := map[string][2]int{}
	for k, s := range got {
		counts[k] = [2]int{s.OK, s.Failed()}
	}
	if diff := cmp.Diff(map[string][2]int{"1": {5, 0}, "0": {0, 5}}, counts); diff != "" {
		t.Errorf("OK and failed by key (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"500 no\n": 5}, got["0"].Failures); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
	if seen != 5 {
		t.Errorf("Each saw %d answers; want 5", seen)
	}
	// Send keeps the latencies, so that a load added to another keeps its
	// quantiles.
	if one := got["1"]; one.Add(Stats{}).P99 != one.P99 || one.P99 <= 0 {
		t.Errorf("p99 %v, and added to nothing %v: the latencies were not kept", one.P99, one.Add(Stats{}).P99)
	}
}
