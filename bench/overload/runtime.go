package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/drover-registry/drover/bench/internal/benchserver"
)

// goRuntime is what the server's Go runtime has counted so far, from its
// metrics: garbage collections, and the scheduler's histogram of how long
// goroutines waited, ready to run, for a CPU (go_sched_latencies_seconds).
// The difference of two readings is what happened between them.
type goRuntime struct {
	GCs        int
	Waits      float64   // goroutines that waited (the histogram's count)
	WaitSum    float64   // seconds they waited, all together
	WaitsUnder []float64 // Waits at most Bounds[i] seconds, cumulative
	Bounds     []float64 // the finite bucket bounds, ascending
}

// readRuntime scrapes the server's metrics once; the zero value when they
// cannot be read.
func readRuntime(ctx context.Context, srv *benchserver.Server) goRuntime {
	m, err := srv.Metrics(ctx)
	if err != nil {
		return goRuntime{}
	}
	return runtimeFrom(m)
}

func runtimeFrom(m map[string]float64) goRuntime {
	r := goRuntime{GCs: int(m["go_gc_duration_seconds_count"]), Waits: m["go_sched_latencies_seconds_count"],
		WaitSum: m["go_sched_latencies_seconds_sum"]}
	type bucket struct{ le, n float64 }
	var bs []bucket
	for series, n := range m {
		le, ok := strings.CutPrefix(series, `go_sched_latencies_seconds_bucket{le="`)
		if !ok {
			continue
		}
		if b, err := strconv.ParseFloat(strings.TrimSuffix(le, `"}`), 64); err == nil && b < 1e300 {
			bs = append(bs, bucket{b, n})
		}
	}
	slices.SortFunc(bs, func(a, b bucket) int { return cmp.Compare(a.le, b.le) })
	for _, b := range bs {
		r.Bounds, r.WaitsUnder = append(r.Bounds, b.le), append(r.WaitsUnder, b.n)
	}
	return r
}

// since is what was counted between before and r; the zero value when
// either reading failed.
func (r goRuntime) since(before goRuntime) goRuntime {
	if r.Waits == 0 || before.Waits == 0 || !slices.Equal(r.Bounds, before.Bounds) {
		return goRuntime{}
	}
	d := goRuntime{GCs: r.GCs - before.GCs, Waits: r.Waits - before.Waits, WaitSum: r.WaitSum - before.WaitSum, Bounds: r.Bounds}
	for i, n := range r.WaitsUnder {
		d.WaitsUnder = append(d.WaitsUnder, n-before.WaitsUnder[i])
	}
	return d
}

// describeWaits summarises the scheduler's waits: their mean, and the
// share longer than each bound from a tenth of a millisecond up, as
// "mean 41 µs; over 0.9 ms 2.1 %, over 10.5 ms 0.3 %".
func (r goRuntime) describeWaits() string {
	if r.Waits <= 0 {
		return "not read"
	}
	parts := []string{fmt.Sprintf("mean %.0f µs", 1e6*r.WaitSum/r.Waits)}
	for i, b := range r.Bounds {
		if b < 1e-4 || b > 1 {
			continue
		}
		parts = append(parts, fmt.Sprintf("over %.1f ms %.1f %%", 1e3*b, 100*(r.Waits-r.WaitsUnder[i])/r.Waits))
	}
	return strings.Join(parts, "; ")
}
