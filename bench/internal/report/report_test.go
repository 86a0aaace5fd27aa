package report

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFormats(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, got, want string }{
		{"ms", Ms(1234567 * time.Nanosecond), "1.2 ms"},
		{"ms zero", Ms(0), "0.0 ms"},
		{"ratio", Ratio(3, 2), "1.50×"},
		{"ratio of nothing", Ratio(3, 0), "—"},
		{"thousands small", Thousands(999), "999"},
		{"thousands", Thousands(1000), "1,000"},
		{"thousands million", Thousands(1234567), "1,234,567"},
		{"thousands negative", Thousands(-123), "-123"},
		{"thousands negative large", Thousands(-1234567), "-1,234,567"},
		{"throughput", Throughput(16240, 20*time.Second+40*time.Millisecond), "810 req/s (16,240 in 20s)"},
		{"commonest", Commonest(map[string]int{"a": 1, "b": 5, "c": 2}, map[string]int{"a": 3, "d": 1}),
			`5 × "b"; 4 × "a"; 2 × "c"`},
		{"commonest ties", Commonest(map[string]int{"y": 1, "x": 1}), `1 × "x"; 1 × "y"`},
		{"commonest none", Commonest(), ""},
		{"command", CommandLine("overload", []string{"--database", "postgres://h/db?sslmode=disable", "--factor", "2"}),
			"go run ./bench/overload --database 'postgres://h/db?sslmode=disable' --factor 2"},
		{"command quote", CommandLine("movements", []string{"it's", ""}), `go run ./bench/movements 'it'\''s' ''`},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	// The day is UTC's: one table per run, whatever the zone it ran in.
	late := time.Date(2026, 1, 2, 23, 30, 0, 0, time.FixedZone("UTC-2", -2*3600))
	if m := (Header{Started: late}).Machine(); !strings.HasSuffix(m, " cores, 2026-01-03") {
		t.Errorf("Machine() = %q; want N cores, 2026-01-03", m)
	}
	if q := Quotient(1, 0); q != 0 {
		t.Errorf("Quotient(1, 0) = %v; want 0", q)
	}
	if n := Count(map[string]int{"a": 2, "b": 3}); n != 5 {
		t.Errorf("Count = %d; want 5", n)
	}
}

// TestRow checks the cells docs/performance.md's tables are made of: the verdict
// follows the last cell, the target, and is empty without one.
func TestRow(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	Row(&b, true, "… p50", "1.0 ms", "", "")
	Row(&b, true, "… p99", "2.0 ms", "≤ 25 ms")
	Row(&b, false, "throughput", "5 req/s", "≥ 2× baseline")
	want := "| … p50 | 1.0 ms |  |  |  |\n| … p99 | 2.0 ms | ≤ 25 ms | PASS |\n| throughput | 5 req/s | ≥ 2× baseline | **MISS** |\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}
