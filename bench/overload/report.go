package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/cpu"
	"github.com/drover-registry/drover/bench/internal/load"
	"github.com/drover-registry/drover/bench/internal/report"
)

// results are every figure of one run.
type results struct {
	report.Header
	Options options

	OffCapacity  stats // the capacity with every limit off
	Warmup       stats
	Unloaded     stats
	Capacity     stats // the capacity at the defaults
	Offered      int   // requests a second asked of the overload
	Overload     stats
	MemoryBefore benchserver.Memory // peak memory before the overload
	Memory       benchserver.Memory // and after it
	MemoryErr    error              // the process is gone
	Up           bool               // /healthz answered 200 after the overload
	Refusals     string             // refused by each limit, from the server's metrics

	// What the server's Go runtime counted during the unloaded load and
	// the overload: garbage collections, goroutines' waits for a CPU.
	UnloadedRuntime, OverloadRuntime goRuntime

	// Processor time used during the unloaded load, the capacity load and
	// the overload.
	UnloadedCPU, CapacityCPU, OverloadCPU cpu.Reading

	// Durations of the 2xx answers inside the server (its access log), of
	// the unloaded load and of the overload.
	InsideUnloaded, InsideOverload []time.Duration
	InsidePost, InsideGet          []time.Duration // of the overload
}

// print writes the results as a Markdown table, with the targets.
func (r *results) print(w io.Writer) {
	ms, th, q, ratio, count := report.Ms, report.Thousands, load.Quantile, report.Quotient, report.Count
	o, u, c, v := r.Options, r.Unloaded, r.Capacity, r.Overload
	off := r.OffCapacity
	fmt.Fprintf(w, "\n### %s, the default limits (--rate-limit %s) beside every limit off (%s)\n\n    %s\n\n", r.Dialect,
		strconv.FormatFloat(o.RateLimit, 'f', -1, 64), r.Machine(), r.Command)
	fmt.Fprintf(w, "Load average as the run began: %s. The mix, in turns: POST /v1/TransferRequests by keeper1, by keeper2, "+
		"GET /v1/TransferRequests?$top=20 by keeper1, by the inspector. The load generator shares the machine.\n\n", r.LoadAverage)
	fmt.Fprintln(w, "| figure | value | target | |")
	fmt.Fprintln(w, "|---|---|---|---|")
	u99 := q(u.AdmittedLat, 0.99)
	report.Row(w, true, fmt.Sprintf("unloaded, %d req/s offered for %s: p50 / p99", o.LightRate, o.Phase),
		fmt.Sprintf("%s / %s (%s answered)", ms(q(u.AdmittedLat, 0.5)), ms(u99), th(u.Admitted)), "")
	report.Row(w, true, fmt.Sprintf("capacity with every limit off, %d connections for %s (%d turns, alternating with the next row's)", o.Connections, o.Phase, capacityTurns),
		fmt.Sprintf("%.0f 2xx/s; p50 / p99 %s / %s", off.AdmittedRate(), ms(q(off.AdmittedLat, 0.5)), ms(q(off.AdmittedLat, 0.99))), "")
	share := ratio(float64(c.Refused), float64(c.Sent))
	report.Row(w, c.AdmittedRate() >= 0.95*off.AdmittedRate() && share < 0.01, fmt.Sprintf("capacity at the defaults, %d connections for %s", o.Connections, o.Phase),
		fmt.Sprintf("%.0f 2xx/s (%.2f× limits off); p50 / p99 %s / %s; %s refused (%.2f %%)", c.AdmittedRate(), ratio(c.AdmittedRate(), off.AdmittedRate()),
			ms(q(c.AdmittedLat, 0.5)), ms(q(c.AdmittedLat, 0.99)), th(c.Refused), 100*share), "≥ 0.95×, < 1 % refused")
	report.Row(w, true, fmt.Sprintf("overload for %s: offered (asked / achieved)", o.Duration),
		fmt.Sprintf("%s / %.0f req/s (%.1f× capacity with limits off)", th(r.Offered), v.SentRate(), ratio(v.SentRate(), off.AdmittedRate())), "")
	report.Row(w, v.AdmittedRate() >= 0.9*off.AdmittedRate(), "… admitted (2xx)", fmt.Sprintf("%.0f req/s (%.2f× capacity with limits off), %s",
		v.AdmittedRate(), ratio(v.AdmittedRate(), off.AdmittedRate()), th(v.Admitted)), "≥ 0.90×")
	report.Row(w, true, "… refused: 429 / 503", fmt.Sprintf("%s / %s", th(v.TooMany), th(v.Busy)), "")
	r99 := q(v.RefusedLat, 0.99)
	report.Row(w, r99 <= 2*u99, "… time to refuse: p50 / p99", ms(q(v.RefusedLat, 0.5))+" / "+ms(r99), "p99 ≤ 2× unloaded p99")
	a99 := q(v.AdmittedLat, 0.99)
	report.Row(w, true, "… admitted p50 / p99", ms(q(v.AdmittedLat, 0.5))+" / "+ms(a99), "")
	report.Row(w, a99 <= 2*u99, "… admitted p99 / unloaded p99", fmt.Sprintf("%.2f×", ratio(float64(a99), float64(u99))), "≤ 2×")
	if o.Client == "raw" {
		wv, wu := q(v.AdmittedWire, 0.99), q(u.AdmittedWire, 0.99)
		report.Row(w, wv <= 2*wu, "… the same on the wire (the kernel's receive time of each answer): overload / unloaded",
			fmt.Sprintf("%s / %s = %.2f× (%s / %s answers unstamped)", ms(wv), ms(wu), ratio(float64(wv), float64(wu)),
				th(v.Unstamped), th(u.Unstamped)), "≤ 2×")
	}
	i99, io99 := q(r.InsideUnloaded, 0.99), q(r.InsideOverload, 0.99)
	report.Row(w, true, "… admitted p99 inside the server (access log): overload / unloaded",
		fmt.Sprintf("%s / %s = %.2f×", ms(io99), ms(i99), ratio(float64(io99), float64(i99))), "")
	report.Row(w, true, "… … POST p50 / p99, GET p50 / p99", fmt.Sprintf("%s / %s, %s / %s", ms(q(r.InsidePost, 0.5)),
		ms(q(r.InsidePost, 0.99)), ms(q(r.InsideGet, 0.5)), ms(q(r.InsideGet, 0.99))), "")
	for _, l := range []struct {
		name string
		s    stats
		c    cpu.Reading
	}{{"unloaded", u, r.UnloadedCPU}, {"capacity", c, r.CapacityCPU}, {"overload", v, r.OverloadCPU}} {
		report.Row(w, true, "CPU during the "+l.name+": server / load generator / machine busy",
			fmt.Sprintf("%.2f / %.2f cores / %.0f %%", ratio(float64(l.c.Server), float64(l.s.Elapsed)),
				ratio(float64(l.c.Generator), float64(l.s.Elapsed)), 100*l.c.BusyShare()), "")
	}
	report.Row(w, true, "… the server's garbage collections during the overload",
		fmt.Sprintf("%s (%.1f a second)", th(r.OverloadRuntime.GCs), ratio(float64(r.OverloadRuntime.GCs), v.Elapsed.Seconds())), "")
	report.Row(w, true, "… the server's goroutines' waits for a CPU (go_sched_latencies_seconds): unloaded",
		r.UnloadedRuntime.describeWaits(), "")
	report.Row(w, true, "… and during the overload", r.OverloadRuntime.describeWaits(), "")
	if r.Refusals != "" {
		report.Row(w, true, "… refusals counted by the server (whole run): by limit", r.Refusals, "")
	}
	report.Row(w, count(v.Other5xx) == 0, "… 5xx other than 503", th(count(v.Other5xx)), "0")
	report.Row(w, count(v.Other) == 0, "… unanswered or other (timeouts, connection errors, 4xx)", th(count(v.Other)), "0")
	report.Row(w, r.MemoryErr == nil && r.Memory.Own <= 200e6,
		"server peak memory, own (RssAnon) / resident, mapped database pages included (VmHWM): before the overload",
		r.MemoryBefore.String(), "")
	report.Row(w, r.MemoryErr == nil && r.Memory.Own <= 200e6, "… after it", r.Memory.String(), "own ≤ 200 MB")
	report.Row(w, r.Up, "server still up (/healthz 200)", map[bool]string{true: "yes", false: "no"}[r.Up], "yes")
	fmt.Fprintln(w)
	for _, l := range []struct {
		name string
		s    stats
	}{{"limits off", off}, {"warm-up", r.Warmup}, {"unloaded", u}, {"capacity", c}, {"overload", v}} {
		if n := count(l.s.Other5xx) + count(l.s.Other); n > 0 {
			fmt.Fprintf(w, "%s: %d neither 2xx nor 429/503: %s\n", l.name, n, report.Commonest(l.s.Other5xx, l.s.Other))
		}
	}
}
