package benchserver

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Metrics reads the server's /metrics: each series (its name with its
// labels, as written) and its value.
func (s *Server) Metrics(ctx context.Context) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", res.Status)
	}
	return parseMetrics(res.Body)
}

// parseMetrics reads Prometheus's text format: comments are skipped, and
// every other line is a series and its value, split at the last space.
func parseMetrics(r io.Reader) (map[string]float64, error) {
	m := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			return nil, fmt.Errorf("/metrics: no value in %q", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("/metrics: %q: %w", line, err)
		}
		m[line[:i]] = v
	}
	return m, sc.Err()
}

// GroupCommit is what the store's group commit did between two readings
// of /metrics.
type GroupCommit struct {
	Commits, Calls float64
	CommitTime     time.Duration // summed over the commits
	SlowCommits    float64       // commits whose COMMIT took over 10 ms: the disk's stalls
	// Slowest is the bucket of the slowest COMMIT: its upper bound (or,
	// for the last bucket, its lower bound as a negative), 0 when none.
	Slowest time.Duration
	Elapsed time.Duration // between the readings
}

// Add is g and h together, as if one span: counts and times summed, the
// slowest the slower of the two.
func (g GroupCommit) Add(h GroupCommit) GroupCommit {
	sum := GroupCommit{Commits: g.Commits + h.Commits, Calls: g.Calls + h.Calls, CommitTime: g.CommitTime + h.CommitTime,
		SlowCommits: g.SlowCommits + h.SlowCommits, Elapsed: g.Elapsed + h.Elapsed, Slowest: g.Slowest}
	// A negative Slowest is past the last bound: slower than any bound.
	rank := func(d time.Duration) time.Duration {
		if d < 0 {
			return 1<<62 - d
		}
		return d
	}
	if rank(h.Slowest) > rank(g.Slowest) {
		sum.Slowest = h.Slowest
	}
	return sum
}

// slowCommit is the bucket of the commit histogram that SlowCommits counts
// past.
const slowCommit = `drover_store_group_commit_duration_seconds_bucket{le="0.01"}`

// GroupCommitSince reads /metrics again and returns the group commit's
// work since before, a reading taken at from.
func (s *Server) GroupCommitSince(ctx context.Context, before map[string]float64, from time.Time) (GroupCommit, error) {
	after, err := s.Metrics(ctx)
	if err != nil {
		return GroupCommit{}, err
	}
	return groupCommit(before, after, time.Since(from)), nil
}

func groupCommit(before, after map[string]float64, elapsed time.Duration) GroupCommit {
	d := func(name string) float64 { return after[name] - before[name] }
	return GroupCommit{Commits: d("drover_store_group_commits_total"), Calls: d("drover_store_group_calls_total"),
		CommitTime:  time.Duration(d("drover_store_group_commit_seconds_total") * float64(time.Second)),
		SlowCommits: d("drover_store_group_commit_duration_seconds_count") - d(slowCommit),
		Slowest:     slowest(before, after), Elapsed: elapsed}
}

// commitBucket is the prefix of the commit histogram's buckets.
const commitBucket = `drover_store_group_commit_duration_seconds_bucket{le="`

// slowest finds the first bucket of the commit histogram that holds
// every commit between the readings: the slowest commit took at most its
// bound. Past the last finite bound it returns that bound, negated.
func slowest(before, after map[string]float64) time.Duration {
	total := after["drover_store_group_commit_duration_seconds_count"] - before["drover_store_group_commit_duration_seconds_count"]
	if total <= 0 {
		return 0
	}
	type bucket struct {
		bound  float64 // seconds
		series string
	}
	var buckets []bucket
	for series := range after {
		if le, ok := strings.CutPrefix(series, commitBucket); ok {
			if b, err := strconv.ParseFloat(strings.TrimSuffix(le, `"}`), 64); err == nil && !math.IsInf(b, 1) {
				buckets = append(buckets, bucket{b, series})
			}
		}
	}
	if len(buckets) == 0 {
		return 0
	}
	slices.SortFunc(buckets, func(a, b bucket) int { return cmp.Compare(a.bound, b.bound) })
	for _, b := range buckets {
		if after[b.series]-before[b.series] >= total {
			return time.Duration(b.bound * float64(time.Second))
		}
	}
	return -time.Duration(buckets[len(buckets)-1].bound * float64(time.Second))
}

// String says it as the benchmarks print it: commits a second, the mean
// group and the mean commit, and the share of the time spent committing.
func (g GroupCommit) String() string {
	if g.Commits <= 0 || g.Elapsed <= 0 {
		return "no group commits"
	}
	slowest := ""
	switch {
	case g.Slowest > 0:
		slowest = ", the slowest at most " + g.Slowest.String()
	case g.Slowest < 0:
		slowest = ", the slowest over " + (-g.Slowest).String()
	}
	return fmt.Sprintf("%.0f group commits a second of %.1f writes each (submissions and jobs), %.2f ms a commit, %.0f %% of the time in COMMIT; %.0f commits took over 10 ms%s",
		g.Commits/g.Elapsed.Seconds(), g.Calls/g.Commits, float64(g.CommitTime)/g.Commits/float64(time.Millisecond),
		100*g.CommitTime.Seconds()/g.Elapsed.Seconds(), g.SlowCommits, slowest)
}
