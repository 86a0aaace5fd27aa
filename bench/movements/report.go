package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/load"
	"github.com/drover-registry/drover/bench/internal/report"
)

// results are every figure of one run.
type results struct {
	report.Header
	Options options

	Build        time.Duration // zero with --skip-build
	BodySize     int
	Posts        [3]posts   // by setup
	FilterAlone  load.Stats // the month from one connection
	Filter       load.Stats // the month from filterConns connections
	FilterItems  int        // requests on one page of the last month
	Page1, PageN load.Stats
	Depth        int // the page PageN is
	Memory       benchserver.Memory
}

// storeTargets are what issue 21 holds each store's POSTs to: SQLite, one
// writer beside a naive server that commits each INSERT alone, twice
// its rate; PostgreSQL, which shares WAL flushes between the naive
// server's backends itself, its rate.
type storeTargets struct {
	ratio float64
	p99   time.Duration
}

func targetsOf(dialect string) storeTargets {
	if dialect == "PostgreSQL" {
		return storeTargets{1, 50 * time.Millisecond}
	}
	return storeTargets{2, 30 * time.Millisecond}
}

// jobsDrain is how soon after the load the POSTs' jobs must all have run
// for the jobs to keep pace ("within seconds").
const jobsDrain = 10 * time.Second

// print writes the results as a Markdown table, with the targets.
func (r *results) print(w io.Writer) {
	o := r.Options
	ms, th, ratio := report.Ms, report.Thousands, report.Ratio
	registry := fmt.Sprintf("%s movements over %s holdings", th(o.Movements), th(o.Holdings))
	if o.SkipBuild { // --movements and --holdings are not what the kept registry was built with
		registry = "a registry kept by an earlier run"
	}
	fmt.Fprintf(w, "\n### %s: %s, the default limits (--rate-limit raised) (%s)\n\n", r.Dialect, registry, r.Machine())
	fmt.Fprintf(w, "    %s\n\n", r.Command)
	if r.Build > 0 {
		fmt.Fprintf(w, "Built in %s. ", r.Build.Round(100*time.Millisecond))
	}
	fmt.Fprintf(w, "Load average as the run began: %s.\n\n", r.LoadAverage)
	fmt.Fprintln(w, "| figure | value | vs baseline | target | |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	b, off, p := r.Posts[naive], r.Posts[limitsOff], r.Posts[defaults]
	post := fmt.Sprintf("POST /v1/TransferRequests, %d conns, %d × %s, %d-byte body", o.Connections, len(postRounds), o.Duration, r.BodySize)
	t := targetsOf(r.Dialect)
	report.Row(w, p.Rate() >= t.ratio*b.Rate(), post+": throughput", report.Throughput(p.OK, p.Elapsed), ratio(p.Rate(), b.Rate()),
		fmt.Sprintf("≥ %g× baseline", t.ratio))
	report.Row(w, true, "… p50", ms(p.P50), ratio(float64(p.P50), float64(b.P50)), "")
	report.Row(w, p.P99 <= t.p99, "… p99", ms(p.P99), ratio(float64(p.P99), float64(b.P99)), "≤ "+ms(t.p99))
	f := p.OK + p.Failed()
	refused := 0.0
	if f > 0 {
		refused = float64(p.Failed()) / float64(f)
	}
	report.Row(w, p.Rate() >= 0.95*off.Rate() && refused < 0.01, "… at the defaults / with every limit off: throughput; answers other than 201",
		fmt.Sprintf("%.2f×; %.2f %%", p.Rate()/max(off.Rate(), 1e-9), 100*refused), "", "≥ 0.95×; < 1 %")
	report.Row(w, true, "the same POSTs with every limit off: throughput", report.Throughput(off.OK, off.Elapsed),
		ratio(off.Rate(), b.Rate()), "")
	report.Row(w, true, "… p50 / p99", ms(off.P50)+" / "+ms(off.P99), "", "")
	report.Row(w, p.Longest <= jobsDrain, "the POSTs' jobs: queue empty after the load (the longer turn)", p.Longest.Round(time.Second).String(), "",
		"≤ "+jobsDrain.String())
	report.Row(w, true, "naive baseline (one INSERT a request): throughput", report.Throughput(b.OK, b.Elapsed), "1.00×", "")
	report.Row(w, true, "… p50 / p99", ms(b.P50)+" / "+ms(b.P99), "", "")
	pg := r.Dialect == "PostgreSQL"
	report.Row(w, true, "CPU a POST, naive: "+cpuParts(b, true, pg), cpuTotal(b), "", "")
	report.Row(w, true, "CPU a POST and its job, limits off: "+cpuParts(off, false, pg), cpuTotal(off), "", "")
	report.Row(w, true, "CPU a POST and its job, defaults: "+cpuParts(p, false, pg), cpuTotal(p), "", "")
	report.Row(w, true, fmt.Sprintf("GET a month of %s's requests ($top=100), 1 conn, %s requests: p50", benchUser,
		th(r.FilterAlone.OK)), ms(r.FilterAlone.P50), "", "")
	report.Row(w, r.FilterAlone.P99 <= 20*time.Millisecond, "… p99", ms(r.FilterAlone.P99), "", "≤ 20 ms")
	report.Row(w, true, fmt.Sprintf("… %d conns, %s requests: p50", filterConns, th(r.Filter.OK)), ms(r.Filter.P50), "", "")
	report.Row(w, r.Filter.P99 <= 20*time.Millisecond, "… p99", ms(r.Filter.P99), "", "≤ 20 ms")
	report.Row(w, true, "GET page 1 (inspector, 100 a page): p50", ms(r.Page1.P50), "", "")
	report.Row(w, float64(r.PageN.P50) <= 1.2*float64(r.Page1.P50), fmt.Sprintf("GET page %s by @odata.nextLink: p50", th(r.Depth)),
		ms(r.PageN.P50), "", "≤ 1.2× page 1")
	report.Row(w, true, "… page "+th(r.Depth)+" / page 1", ratio(float64(r.PageN.P50), float64(r.Page1.P50)), "", "")
	report.Row(w, r.Memory.Own <= 200e6, "server peak memory: own (RssAnon) / resident, mapped database pages included (VmHWM)", r.Memory.String(), "", "own ≤ 200 MB")
	// The POSTs' rate counts submissions; their jobs may still be queued
	// when the load ends. Over the load and the drain together, every
	// submission was also applied: the rate the writer sustains.
	applied := 0.0
	if d := p.Elapsed + p.Draining; d > 0 {
		applied = float64(p.OK) / d.Seconds()
	}
	fmt.Fprintf(w, "\nThe POST loads ran in turns: %s. At the defaults, jobs queued by the POSTs: up to %s, all run at most %s after a load: "+
		"the POSTs were applied at %s a second over the loads and the drains (±0.5 s of polling). A page of the last month held %d requests.\n",
		turns(), th(p.Jobs), p.Longest.Round(time.Second), th(int(applied)), r.FilterItems)
	fmt.Fprintf(w, "During the POSTs at the defaults (from /metrics): %s.\n", p.Group)
	fmt.Fprintln(w, "CPU a POST is the busy processor time of the machine over the loads (and, for Drover, the drains of their jobs) "+
		"over the answers with 201, then where it went; the bound is the rate the machine's cores would carry at that cost, all busy. "+
		"The parts need not sum to the whole: the machine's time holds every other process, and each figure is read to the 10 ms tick.")
	for _, s := range []struct {
		name string
		s    load.Stats
	}{{"baseline POST", b.Stats}, {"Drover POST, limits off", off.Stats}, {"Drover POST", p.Stats}, {"month GET alone", r.FilterAlone}, {"month GET", r.Filter}, {"page 1", r.Page1}, {"page N", r.PageN}} {
		if n := s.s.Failed(); n > 0 {
			fmt.Fprintf(w, "%s: %d answered %d, %d failed: %s\n", s.name, s.s.OK+n, s.s.OK, n, report.Commonest(s.s.Failures))
		}
	}
}

// turns says postRounds' order.
func turns() string {
	names := map[setup]string{naive: "naive", limitsOff: "limits off", defaults: "defaults"}
	var rounds []string
	for _, r := range postRounds {
		var each []string
		for _, s := range r {
			each = append(each, names[s])
		}
		rounds = append(rounds, strings.Join(each, ", "))
	}
	return strings.Join(rounds, "; then ")
}

// cpuParts says where a setup's processor time a request went: the
// server, PostgreSQL's processes (pg: the database is PostgreSQL, whose
// processes are read when they run here), and the load generator, which
// holds the naive server too.
func cpuParts(p posts, naive, pg bool) string {
	per := func(d time.Duration) string {
		if p.OK == 0 {
			return "–"
		}
		return fmt.Sprintf("%.0f µs", float64(d.Microseconds())/float64(p.OK))
	}
	var parts []string
	if !naive {
		parts = append(parts, "server "+per(p.CPU.Server))
	}
	if pg && p.CPU.Postgres > 0 {
		parts = append(parts, "PostgreSQL "+per(p.CPU.Postgres))
	}
	if naive {
		parts = append(parts, "generator and naive server "+per(p.CPU.Generator))
	} else {
		parts = append(parts, "generator "+per(p.Generator))
	}
	return strings.Join(parts, ", ") + fmt.Sprintf("; machine %.0f %% busy", 100*p.CPU.BusyShare())
}

// cpuTotal is the busy processor time of the whole machine a request.
func cpuTotal(p posts) string {
	if p.OK == 0 {
		return "–"
	}
	per := float64(p.CPU.Busy.Microseconds()) / float64(p.OK)
	if per <= 0 {
		return "–" // no /proc/stat
	}
	return fmt.Sprintf("%.0f µs (bound %s/s)", per, report.Thousands(int(float64(runtime.NumCPU())*1e6/per)))
}
