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
	Command     string
	Options     options
	Dialect     string
	Started     time.Time
	LoadAverage string // /proc/loadavg as the run began: other work on the machine skews every figure
	Warmup      stats
	Unloaded    stats
	Capacity    stats
	Offered     int // requests a second asked of the overload
	Overload    stats
	RSSBefore   int64  // VmHWM before the overload
	RSS         int64  // VmHWM after it
	RSSErr      error  // the process is gone
	Up          bool   // /healthz answered 200 after the overload
	Limits      string // the adaptive limits after the overload

	// Durations of the 2xx answers inside the server (its access log), of
	// the unloaded load and of the overload.
	InsideUnloaded, InsideOverload []time.Duration
	InsidePost, InsideGet          []time.Duration // of the overload
}

// print writes the report as a Markdown table, with the targets.
func (r *report) print(w io.Writer) {
	o, u, c, v := r.Options, r.Unloaded, r.Capacity, r.Overload
	shed := "adaptive limit and --max-in-flight 512"
	if !o.Adaptive {
		shed = "--max-in-flight 512 only (--adaptive=false)"
	}
	fmt.Fprintf(w, "\n### %s, %s (%d cores, %s)\n\n    %s\n\n", r.Dialect, shed, runtime.NumCPU(), r.Started.UTC().Format("2006-01-02"), r.Command)
	fmt.Fprintf(w, "Load average as the run began: %s. The mix, in turns: POST /v1/TransferRequests by keeper1, by keeper2, "+
		"GET /v1/TransferRequests?$top=20 by keeper1, by the inspector. The load generator shares the machine.\n\n", r.LoadAverage)
	fmt.Fprintln(w, "| figure | value | target | |")
	fmt.Fprintln(w, "|---|---|---|---|")
	u99 := quantile(u.AdmittedLat, 0.99)
	row(w, fmt.Sprintf("unloaded, %d req/s offered for %s: p50 / p99", o.LightRate, o.Phase),
		fmt.Sprintf("%s / %s (%s answered)", ms(quantile(u.AdmittedLat, 0.5)), ms(u99), thousands(u.Admitted)), "", true)
	row(w, fmt.Sprintf("capacity, %d connections for %s", o.Connections, o.Phase),
		fmt.Sprintf("%.0f 2xx/s; p50 / p99 %s / %s; %s refused", c.AdmittedRate(), ms(quantile(c.AdmittedLat, 0.5)),
			ms(quantile(c.AdmittedLat, 0.99)), thousands(c.Refused)), "", true)
	row(w, fmt.Sprintf("overload for %s: offered (asked / achieved)", o.Duration),
		fmt.Sprintf("%s / %.0f req/s (%.1f× capacity)", thousands(r.Offered), v.SentRate(), ratio(v.SentRate(), c.AdmittedRate())), "", true)
	row(w, "… admitted (2xx)", fmt.Sprintf("%.0f req/s (%.2f× capacity), %s", v.AdmittedRate(), ratio(v.AdmittedRate(), c.AdmittedRate()),
		thousands(v.Admitted)), "", true)
	row(w, "… refused: 429 / 503", fmt.Sprintf("%s / %s", thousands(v.TooMany), thousands(v.Busy)), "", true)
	r99 := quantile(v.RefusedLat, 0.99)
	row(w, "… time to refuse: p50 / p99", ms(quantile(v.RefusedLat, 0.5))+" / "+ms(r99),
		"p99 ≤ 2× unloaded p99", r99 <= 2*u99)
	a99 := quantile(v.AdmittedLat, 0.99)
	row(w, "… admitted p50 / p99", ms(quantile(v.AdmittedLat, 0.5))+" / "+ms(a99), "", true)
	row(w, "… admitted p99 / unloaded p99", fmt.Sprintf("%.2f×", ratio(float64(a99), float64(u99))), "≤ 2×", a99 <= 2*u99)
	i99, io99 := quantile(r.InsideUnloaded, 0.99), quantile(r.InsideOverload, 0.99)
	row(w, "… admitted p99 inside the server (access log): overload / unloaded",
		fmt.Sprintf("%s / %s = %.2f×", ms(io99), ms(i99), ratio(float64(io99), float64(i99))), "", true)
	row(w, "… … POST p50 / p99, GET p50 / p99", fmt.Sprintf("%s / %s, %s / %s", ms(quantile(r.InsidePost, 0.5)),
		ms(quantile(r.InsidePost, 0.99)), ms(quantile(r.InsideGet, 0.5)), ms(quantile(r.InsideGet, 0.99))), "", true)
	if r.Limits != "" {
		row(w, "… adaptive limits after the overload", r.Limits, "", true)
	}
	row(w, "… 5xx other than 503", thousands(v.other5xx()), "0", v.other5xx() == 0)
	row(w, "… unanswered or other (timeouts, connection errors, 4xx)", thousands(count(v.Other)), "0", count(v.Other) == 0)
	row(w, "server peak RSS (VmHWM): before / after the overload",
		fmt.Sprintf("%.0f / %.0f MB", float64(r.RSSBefore)/1e6, float64(r.RSS)/1e6), "≤ 200 MB", r.RSSErr == nil && r.RSS <= 200e6)
	row(w, "server still up (/healthz 200)", map[bool]string{true: "yes", false: "no"}[r.Up], "yes", r.Up)
	fmt.Fprintln(w)
	for _, l := range []struct {
		name string
		s    stats
	}{{"warm-up", r.Warmup}, {"unloaded", u}, {"capacity", c}, {"overload", v}} {
		if n := l.s.other5xx() + count(l.s.Other); n > 0 {
			fmt.Fprintf(w, "%s: %d neither 2xx nor 429/503: %s\n", l.name, n, commonest(l.s.Other5xx, l.s.Other))
		}
	}
}

func row(w io.Writer, figure, value, target string, pass bool) {
	verdict := ""
	if target != "" {
		verdict = map[bool]string{true: "PASS", false: "**MISS**"}[pass]
	}
	fmt.Fprintf(w, "| %s | %s | %s | %s |\n", figure, value, target, verdict)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func count(m map[string]int) (n int) {
	for _, c := range m {
		n += c
	}
	return n
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// commonest lists the three commonest of counted things.
func commonest(counts ...map[string]int) string {
	all := map[string]int{}
	for _, m := range counts {
		for k, c := range m {
			all[k] += c
		}
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return all[b] - all[a] })
	var parts []string
	for _, k := range keys[:min(len(keys), 3)] {
		parts = append(parts, fmt.Sprintf("%d × %q", all[k], k))
	}
	return strings.Join(parts, "; ")
}
