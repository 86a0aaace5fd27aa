package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"
)

// report is every figure of one run.
type report struct {
	Command        string
	Options        options
	Dialect        string
	Started        time.Time
	LoadAverage    string // /proc/loadavg as the run began: other work on the machine skews every figure
	BodySize       int
	Async          stats // the 202s
	Outcome        outcome
	Sync, Baseline stats
	RSS            int64
}

// print writes the report as a Markdown table, with the targets.
func (r *report) print(w io.Writer) {
	o, a, out := r.Options, r.Async, r.Outcome
	fmt.Fprintf(w, "\n### %s (%d cores, %s)\n\n    %s\n\n", r.Dialect, runtime.NumCPU(), r.Started.UTC().Format("2006-01-02"), r.Command)
	fmt.Fprintf(w, "Load average as the run began: %s. Bodies of %d bytes; every POST carries its own X-Correlation-ID.\n\n",
		r.LoadAverage, r.BodySize)
	fmt.Fprintln(w, "| figure | value | target | |")
	fmt.Fprintln(w, "|---|---|---|---|")
	row(w, fmt.Sprintf("async POST offered at %d/s for %s: 202s", o.Rate, o.Duration),
		fmt.Sprintf("%s (%.0f/s), p50 %s, p99 %s", thousands(a.OK), a.Rate(), ms(a.P50), ms(a.P99)), "", true)
	p50, p99 := quantile(out.Stored, 0.50), quantile(out.Stored, 0.99)
	row(w, "202 → Completed (updated_date − request_date): p50", ms(p50), "≤ 50 ms", p50 <= 50*time.Millisecond)
	row(w, "… p99", ms(p99), "≤ 250 ms", p99 <= 250*time.Millisecond)
	row(w, "… from the client's receipt of the 202: p50 / p99",
		ms(quantile(out.FromAnswer, 0.50))+" / "+ms(quantile(out.FromAnswer, 0.99)), "", true)
	row(w, "Completed / Failed", fmt.Sprintf("%s / %s", thousands(out.Completed), thousands(out.Failed)),
		"every 202 Completed", out.Failed == 0 && out.Completed == a.OK)
	row(w, "queue: most Pending at once (sampled every 250 ms); drained after the load in",
		fmt.Sprintf("%s; %s", thousands(out.MostPending), out.Drain.Round(10*time.Millisecond)), "", true)
	s, b := r.Sync, r.Baseline
	row(w, fmt.Sprintf("sync POST /v1/animals, %d conns, %s: throughput", o.Connections, o.Duration),
		rate(s)+", "+ratio(s.Rate(), b.Rate())+" baseline", "≥ 1.5× baseline", s.Rate() >= 1.5*b.Rate())
	row(w, "… p50", ms(s.P50), "", true)
	row(w, "… p99", ms(s.P99), "≤ 25 ms", s.P99 <= 25*time.Millisecond)
	row(w, "naive baseline (one INSERT a request): throughput", rate(b), "", true)
	row(w, "… p50 / p99", ms(b.P50)+" / "+ms(b.P99), "", true)
	row(w, "server peak RSS (VmHWM)", fmt.Sprintf("%.0f MB", float64(r.RSS)/1e6), "", true)
	fmt.Fprintln(w)
	for _, l := range []struct {
		name string
		s    stats
	}{{"async POST", a}, {"sync POST", s}, {"baseline POST", b}} {
		if n := l.s.failed(); n > 0 {
			fmt.Fprintf(w, "%s: %d failed: %s\n", l.name, n, commonest(l.s.Failures))
		}
	}
	if out.Failed > 0 {
		fmt.Fprintf(w, "Failed registrations: %s\n", commonest(out.FailedBy))
	}
}

func row(w io.Writer, figure, value, target string, pass bool) {
	verdict := ""
	if target != "" {
		verdict = map[bool]string{true: "PASS", false: "**MISS**"}[pass]
	}
	fmt.Fprintf(w, "| %s | %s | %s | %s |\n", figure, value, target, verdict)
}

func rate(s stats) string {
	return fmt.Sprintf("%.0f req/s (%s in %s)", s.Rate(), thousands(s.OK), s.Elapsed.Round(100*time.Millisecond))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func ratio(a, b float64) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// commonest lists the three commonest of counted things.
func commonest(counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return counts[b] - counts[a] })
	var parts []string
	for _, k := range keys[:min(len(keys), 3)] {
		parts = append(parts, fmt.Sprintf("%d × %q", counts[k], k))
	}
	return strings.Join(parts, "; ")
}
