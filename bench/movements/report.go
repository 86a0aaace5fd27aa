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
	Build          time.Duration // zero with --skip-build
	BodySize       int
	Baseline, Post stats
	Jobs           int // the most jobs seen queued after the POSTs
	JobsTook       time.Duration
	Filter         stats
	FilterItems    int // requests on one page of the last month
	Page1, PageN   stats
	Depth          int // the page PageN is
	RSS            int64
	LoadAverage    string // /proc/loadavg as the run began: other work on the machine skews every figure
}

// print writes the report as a Markdown table, with the targets.
func (r *report) print(w io.Writer) {
	o := r.Options
	fmt.Fprintf(w, "\n### %s: %s movements over %s holdings (%d cores, %s)\n\n", r.Dialect, thousands(o.Movements),
		thousands(o.Holdings), runtime.NumCPU(), r.Started.UTC().Format("2006-01-02"))
	fmt.Fprintf(w, "    %s\n\n", r.Command)
	if r.Build > 0 {
		fmt.Fprintf(w, "Built in %s. ", r.Build.Round(100*time.Millisecond))
	}
	fmt.Fprintf(w, "Load average as the run began: %s.\n\n", r.LoadAverage)
	fmt.Fprintln(w, "| figure | value | vs baseline | target | |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	b, p := r.Baseline, r.Post
	post := fmt.Sprintf("POST /v1/TransferRequests, %d conns, %s, %d-byte body", o.Connections, o.Duration, r.BodySize)
	row(w, post+": throughput", rate(p), ratio(p.Rate(), b.Rate()), "≥ 2× baseline", p.Rate() >= 2*b.Rate())
	row(w, "… p50", ms(p.P50), ratio(float64(p.P50), float64(b.P50)), "", true)
	row(w, "… p99", ms(p.P99), ratio(float64(p.P99), float64(b.P99)), "≤ 30 ms", p.P99 <= 30*time.Millisecond)
	row(w, "naive baseline (one INSERT a request): throughput", rate(b), "1.00×", "", true)
	row(w, "… p50 / p99", ms(b.P50)+" / "+ms(b.P99), "", "", true)
	row(w, fmt.Sprintf("GET a month of %s's requests ($top=100), %d conns, %s requests: p50", benchUser, filterConns,
		thousands(r.Filter.OK)), ms(r.Filter.P50), "", "", true)
	row(w, "… p99", ms(r.Filter.P99), "", "≤ 20 ms", r.Filter.P99 <= 20*time.Millisecond)
	row(w, "GET page 1 (inspector, 100 a page): p50", ms(r.Page1.P50), "", "", true)
	row(w, fmt.Sprintf("GET page %s by @odata.nextLink: p50", thousands(r.Depth)), ms(r.PageN.P50),
		"", "≤ 1.2× page 1", float64(r.PageN.P50) <= 1.2*float64(r.Page1.P50))
	row(w, "… page "+thousands(r.Depth)+" / page 1", ratio(float64(r.PageN.P50), float64(r.Page1.P50)), "", "", true)
	row(w, "server peak RSS (VmHWM)", fmt.Sprintf("%.0f MB", float64(r.RSS)/1e6), "", "≤ 200 MB", r.RSS <= 200e6)
	fmt.Fprintf(w, "\nJobs queued by the POSTs: up to %s, all run %s after the load. A page of the last month held %d requests.\n",
		thousands(r.Jobs), r.JobsTook.Round(time.Second), r.FilterItems)
	for _, s := range []struct {
		name string
		s    stats
	}{{"baseline POST", b}, {"Drover POST", p}, {"month GET", r.Filter}, {"page 1", r.Page1}, {"page N", r.PageN}} {
		if n := s.s.failed(); n > 0 {
			fmt.Fprintf(w, "%s: %d answered %d, %d failed: %s\n", s.name, s.s.OK+n, s.s.OK, n, failures(s.s))
		}
	}
}

func row(w io.Writer, figure, value, vs, target string, pass bool) {
	verdict := ""
	if target != "" {
		verdict = map[bool]string{true: "PASS", false: "**MISS**"}[pass]
	}
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", figure, value, vs, target, verdict)
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

// failures lists the commonest failures first.
func failures(s stats) string {
	keys := make([]string, 0, len(s.Failures))
	for k := range s.Failures {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return s.Failures[b] - s.Failures[a] })
	var parts []string
	for _, k := range keys[:min(len(keys), 3)] {
		parts = append(parts, fmt.Sprintf("%d × %q", s.Failures[k], k))
	}
	return strings.Join(parts, "; ")
}

// commandLine is how this run was started.
func commandLine(args []string) string {
	parts := []string{"go run ./bench/movements"}
	for _, a := range args {
		if strings.ContainsAny(a, " ?&$'\"") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
