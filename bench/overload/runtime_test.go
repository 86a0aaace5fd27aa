package main

import "testing"

// TestRuntimeSince reads two scrapes of the scheduler's histogram and
// describes what happened between them.
func TestRuntimeSince(t *testing.T) {
	scrape := func(gcs, under1, under2, n, sum float64) map[string]float64 {
		return map[string]float64{"go_gc_duration_seconds_count": gcs,
			`go_sched_latencies_seconds_bucket{le="6.4e-05"}`: under1,
			`go_sched_latencies_seconds_bucket{le="0.0009"}`:  under2,
			`go_sched_latencies_seconds_bucket{le="+Inf"}`:    n,
			"go_sched_latencies_seconds_count":                n,
			"go_sched_latencies_seconds_sum":                  sum,
			`go_sched_latencies_seconds_bucket{le="0.0105"}`:  n,
			`drover_http_shed_total`:                          3,
		}
	}
	before := runtimeFrom(scrape(10, 50, 90, 100, 0.01))
	after := runtimeFrom(scrape(13, 250, 890, 1100, 0.31))
	d := after.since(before)
	if d.GCs != 3 || d.Waits != 1000 {
		t.Errorf("since: %d GCs, %v waits; want 3, 1000", d.GCs, d.Waits)
	}
	// 1,000 waits of 0.3 s: mean 300 µs; 200 under 64 µs, 800 under 0.9 ms, all under 10.5 ms.
	if got, want := d.describeWaits(), "mean 300 µs; over 0.9 ms 20.0 %; over 10.5 ms 0.0 %"; got != want {
		t.Errorf("describeWaits = %q, want %q", got, want)
	}
	if got := after.since(goRuntime{}).describeWaits(); got != "not read" {
		t.Errorf("since a failed reading: %q, want not read", got)
	}
}
