// Package report formats the figures of the benchmark programs under
// bench/ as the Markdown tables docs/performance.md quotes: milliseconds, ratios,
// thousands separators, rates, the PASS/MISS verdict on a target, and the
// command line and load average that head each table. One place keeps the
// three programs' tables alike, so that their figures read the same way.
package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Ms is a duration in milliseconds, to a tenth: latencies are read at
// that grain, and one unit keeps a column comparable.
func Ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

// Quotient is a / b, or 0 when b is 0 (a load that got nothing).
func Quotient(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Ratio is a / b as "1.25×", or "—" when b is 0.
func Ratio(a, b float64) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// Thousands writes n with a comma every three digits, as docs/performance.md does.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	first := 0
	if n < 0 {
		first = 1
	}
	for i := len(s) - 3; i > first; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Throughput is n answers in elapsed as "812 req/s (16,240 in 20s)": the
// count and the time beside the rate show how much the rate rests on.
func Throughput(n int, elapsed time.Duration) string {
	return fmt.Sprintf("%.0f req/s (%s in %s)", float64(n)/elapsed.Seconds(), Thousands(n), elapsed.Round(100*time.Millisecond))
}

// Row writes one row of a table of figures: the cells, the last of which
// is the target, then the verdict on it, PASS or **MISS** as pass says, or
// nothing when the target is "" (a figure shown for context).
func Row(w io.Writer, pass bool, cells ...string) {
	verdict := ""
	if len(cells) > 0 && cells[len(cells)-1] != "" {
		verdict = map[bool]string{true: "PASS", false: "**MISS**"}[pass]
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(append(cells, verdict), " | "))
}

// Count is the sum of counted things.
func Count(counts map[string]int) (n int) {
	for _, c := range counts {
		n += c
	}
	return n
}

// Commonest lists the three commonest of counted things (summed over the
// maps), as `12 × "503 busy"; 3 × "EOF"`: enough to say what went wrong
// without flooding the report.
func Commonest(counts ...map[string]int) string {
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
	slices.SortFunc(keys, func(a, b string) int {
		if d := all[b] - all[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range keys[:min(len(keys), 3)] {
		parts = append(parts, fmt.Sprintf("%d × %q", all[k], k))
	}
	return strings.Join(parts, "; ")
}
