package groupcommit

import (
	"sync/atomic"
	"time"
)

// Stats are a group's totals since it started.
type Stats struct {
	Commits int64 // transactions committed
	Calls   int64 // calls whose writes those commits kept
	Failed  int64 // transactions that could not commit
	Retried int64 // passes without savepoints given up, their groups run again with them
	Batches int64 // batches of deferred writes sent (deferred.go)
	// Statements is the statements sent one at a time through groups'
	// transactions (savepoints among them, BEGIN and COMMIT not): with
	// Batches, the round trips of a group on a database over a network.
	Statements int64
	// Commit is the committed transactions by the time their COMMIT took,
	// Group by the time from BEGIN to the end of COMMIT, in
	// Config.Buckets.
	Commit, Group Histogram
}

// Histogram counts durations by Config.Buckets: Counts[i] those over the
// bound before Buckets[i] and at most it, the last those over every
// bound. Sum is their total.
type Histogram struct {
	Counts []int64
	Sum    time.Duration
}

// counters are what the committers of a group add to concurrently.
type counters struct {
	commits    atomic.Int64
	kept       atomic.Int64
	failed     atomic.Int64
	retried    atomic.Int64
	batches    atomic.Int64
	statements atomic.Int64
	commitTime durations // of COMMIT, by commit
	groupTime  durations // from BEGIN to the end of COMMIT, by commit
}

func (c *counters) init(buckets []time.Duration) {
	c.commitTime.init(buckets)
	c.groupTime.init(buckets)
}

// committed counts a commit that kept calls. The calls before the commit:
// Stats reads the commits first, so a reading that counts this commit
// counts its calls too.
func (c *counters) committed(calls int, commit, group time.Duration) {
	c.commitTime.observe(commit)
	c.groupTime.observe(group)
	c.kept.Add(int64(calls))
	c.commits.Add(1)
}

// Stats reports the group's totals.
func (g *Group[S]) Stats() Stats {
	c := &g.stats
	commit := c.commitTime.snapshot()
	// The commits before the calls: a group adds its calls first
	// (committed), so no commit is counted without them.
	commits := c.commits.Load()
	return Stats{Commits: commits, Calls: c.kept.Load(), Failed: c.failed.Load(),
		Retried: c.retried.Load(), Batches: c.batches.Load(), Statements: c.statements.Load(),
		Commit: commit, Group: c.groupTime.snapshot()}
}

// durations is a Histogram that committers add to concurrently.
type durations struct {
	bounds []time.Duration
	counts []atomic.Int64 // one more than bounds
	sum    atomic.Int64   // nanoseconds
}

func (d *durations) init(bounds []time.Duration) {
	d.bounds, d.counts = bounds, make([]atomic.Int64, len(bounds)+1)
}

func (d *durations) observe(x time.Duration) {
	i := 0
	for i < len(d.bounds) && x > d.bounds[i] {
		i++
	}
	d.counts[i].Add(1)
	d.sum.Add(int64(x))
}

// snapshot reads the counts one by one: a scrape that races a commit may
// see it in the sum and not yet in a count.
func (d *durations) snapshot() Histogram {
	h := Histogram{Counts: make([]int64, len(d.counts))}
	for i := range d.counts {
		h.Counts[i] = d.counts[i].Load()
	}
	h.Sum = time.Duration(d.sum.Load())
	return h
}
