package benchserver

import (
	"strings"
	"testing"
	"time"
)

func TestParseMetrics(t *testing.T) {
	t.Parallel()
	m, err := parseMetrics(strings.NewReader(`# HELP drover_store_group_commits_total Shared transactions.
# TYPE drover_store_group_commits_total counter
drover_store_group_commits_total 1384
drover_jobs{state="available"} 9220
drover_store_group_commit_seconds_total 1.492757454
`))
	if err != nil {
		t.Fatal(err)
	}
	if m["drover_store_group_commits_total"] != 1384 || m[`drover_jobs{state="available"}`] != 9220 ||
		m["drover_store_group_commit_seconds_total"] != 1.492757454 || len(m) != 3 {
		t.Errorf("parseMetrics = %v", m)
	}
	if _, err := parseMetrics(strings.NewReader("drover_x notanumber\n")); err == nil {
		t.Error("a value that is not a number was taken")
	}
}

func TestGroupCommit(t *testing.T) {
	t.Parallel()
	before := map[string]float64{"drover_store_group_commits_total": 1384, "drover_store_group_calls_total": 17751,
		"drover_store_group_commit_seconds_total": 1.5, "drover_store_group_commit_duration_seconds_count": 1384, slowCommit: 1380}
	after := map[string]float64{"drover_store_group_commits_total": 2750, "drover_store_group_calls_total": 54301,
		"drover_store_group_commit_seconds_total": 4.1, "drover_store_group_commit_duration_seconds_count": 2750, slowCommit: 2739}
	g := groupCommit(before, after, 8*time.Second)
	want := "171 group commits a second of 26.8 writes each (submissions and jobs), 1.90 ms a commit, 32 % of the time in COMMIT; 7 commits took over 10 ms, the slowest over 10ms"
	if got := g.String(); got != want {
		t.Errorf("String() = %q\nwant       %q", got, want)
	}
	// With the buckets past 10 ms, the slowest commit's bucket is named.
	for le, counts := range map[string][2]float64{"0.025": {1382, 2745}, "0.25": {1384, 2750}, "2.5": {1384, 2750}, "+Inf": {1384, 2750}} {
		before[commitBucket+le+`"}`], after[commitBucket+le+`"}`] = counts[0], counts[1]
	}
	if got := groupCommit(before, after, 8*time.Second).String(); !strings.HasSuffix(got, "7 commits took over 10 ms, the slowest at most 250ms") {
		t.Errorf("with buckets: %q", got)
	}
	after[commitBucket+`2.5"}`], after[commitBucket+`0.25"}`] = 2749, 2749
	if got := groupCommit(before, after, 8*time.Second).String(); !strings.HasSuffix(got, ", the slowest over 2.5s") {
		t.Errorf("a commit past the last bound: %q", got)
	}
	if got := (GroupCommit{}).String(); got != "no group commits" {
		t.Errorf("the zero GroupCommit says %q", got)
	}
}

func TestGroupCommitAdd(t *testing.T) {
	t.Parallel()
	a := GroupCommit{Commits: 10, Calls: 100, CommitTime: time.Second, SlowCommits: 1, Slowest: 25 * time.Millisecond, Elapsed: time.Second}
	b := GroupCommit{Commits: 30, Calls: 200, CommitTime: 3 * time.Second, SlowCommits: 2, Slowest: 250 * time.Millisecond, Elapsed: 3 * time.Second}
	want := GroupCommit{Commits: 40, Calls: 300, CommitTime: 4 * time.Second, SlowCommits: 3, Slowest: 250 * time.Millisecond, Elapsed: 4 * time.Second}
	if got := a.Add(b); got != want {
		t.Errorf("a.Add(b) = %+v; want %+v", got, want)
	}
	if got := b.Add(a); got != want {
		t.Errorf("b.Add(a) = %+v; want %+v", got, want)
	}
	over := GroupCommit{Slowest: -2500 * time.Millisecond}
	for _, g := range []GroupCommit{a.Add(over), over.Add(a), (GroupCommit{}).Add(over)} {
		if g.Slowest != over.Slowest {
			t.Errorf("past the last bound is the slowest: got %v", g.Slowest)
		}
	}
	if got := (GroupCommit{}).Add(GroupCommit{}).Slowest; got != 0 {
		t.Errorf("no commits: slowest %v", got)
	}
}
