// Package load sends the benchmark programs' requests with vegeta and
// sums up the answers: how many had the wanted status, how long they
// took (p50 and p99, nearest rank), and what the others were. A closed
// loop (each connection sends its next request when its last is
// answered) measures how fast the server goes; an open loop (a fixed
// rate, whatever the answers take) measures what a client feels at a
// given load.
package load

import (
	"fmt"
	"slices"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Stats summarises one load. Latencies are those of the answers with the
// wanted status; anything else is counted as a failure, by status and
// body or by error.
type Stats struct {
	OK       int
	Failures map[string]int
	Elapsed  time.Duration
	P50, P99 time.Duration

	latencies []time.Duration // sorted: what Add needs to put two loads' quantiles together
}

// Add is s and t as one load: their answers counted together, their
// elapsed times summed, their quantiles those of all their latencies.
func (s Stats) Add(t Stats) Stats {
	sum := Stats{OK: s.OK + t.OK, Failures: map[string]int{}, Elapsed: s.Elapsed + t.Elapsed}
	for _, f := range []map[string]int{s.Failures, t.Failures} {
		for k, n := range f {
			sum.Failures[k] += n
		}
	}
	sum.latencies = append(slices.Clone(s.latencies), t.latencies...)
	slices.Sort(sum.latencies)
	sum.P50, sum.P99 = Quantile(sum.latencies, 0.50), Quantile(sum.latencies, 0.99)
	return sum
}

// Rate is wanted answers per second.
func (s Stats) Rate() float64 { return float64(s.OK) / s.Elapsed.Seconds() }

// Failed is how many answers did not have the wanted status.
func (s Stats) Failed() (n int) {
	for _, c := range s.Failures {
		n += c
	}
	return n
}

// Quantile is the q-th quantile of sorted durations (nearest rank), 0 of
// none.
func Quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// A Run is one load: who sends, at what pace, for how long, and what to
// make of the answers.
type Run struct {
	Attacker *vegeta.Attacker
	Pacer    vegeta.Pacer  // nil: as fast as the attacker's workers go
	Duration time.Duration // or until next or the pacer stops
	Want     int           // the status of a good answer

	// Key, if set, sums the answers up apart by what it says; else they
	// all go under "".
	Key func(*vegeta.Result) string
	// Each, if set, sees every good answer, in the order they come.
	Each func(*vegeta.Result)
}

// Send sends what next makes and sums up the answers by key.
func (r Run) Send(next vegeta.Targeter) map[string]Stats {
	pace := r.Pacer
	if pace == nil {
		pace = vegeta.ConstantPacer{} // the zero rate is no limit: the workers set the pace
	}
	all, lat := map[string]Stats{}, map[string][]time.Duration{}
	start := time.Now()
	for res := range r.Attacker.Attack(next, pace, r.Duration, "") {
		k := ""
		if r.Key != nil {
			k = r.Key(res)
		}
		s := all[k]
		if s.Failures == nil {
			s.Failures = map[string]int{}
		}
		switch {
		case int(res.Code) == r.Want:
			s.OK++
			lat[k] = append(lat[k], res.Latency)
			if r.Each != nil {
				r.Each(res)
			}
		case res.Error != "" && res.Code == 0:
			s.Failures[res.Error]++
		default:
			s.Failures[fmt.Sprintf("%d %.120s", res.Code, res.Body)]++
		}
		all[k] = s
	}
	elapsed := time.Since(start)
	for k, s := range all {
		s.Elapsed = elapsed
		slices.Sort(lat[k])
		s.P50, s.P99, s.latencies = Quantile(lat[k], 0.50), Quantile(lat[k], 0.99), lat[k]
		all[k] = s
	}
	return all
}

// Closed is conns connections, each sending its next request as soon as
// its last is answered (as fast as the server goes), for du or until next
// stops; the answers with status want are the good ones.
func Closed(next vegeta.Targeter, conns int, du time.Duration, want int) Stats {
	return Run{Attacker: ClosedAttacker(conns), Duration: du, Want: want}.Send(next)[""]
}

// ClosedAttacker is conns workers on conns kept-alive connections, no
// more: the attacker of a closed loop.
func ClosedAttacker(conns int) *vegeta.Attacker {
	return vegeta.NewAttacker(vegeta.Workers(uint64(conns)), vegeta.MaxWorkers(uint64(conns)),
		vegeta.Connections(conns), vegeta.MaxConnections(conns), vegeta.KeepAlive(true),
		vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
}

// OpenAttacker starts with workers and opens more when all of them wait:
// the attacker of an open loop.
func OpenAttacker(workers int) *vegeta.Attacker {
	return vegeta.NewAttacker(vegeta.Workers(uint64(workers)), vegeta.KeepAlive(true),
		vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
}

// PerSecond offers rate requests a second, whatever the answers take.
func PerSecond(rate int) vegeta.Pacer { return vegeta.ConstantPacer{Freq: rate, Per: time.Second} }

// Count lets the workers go as fast as they can until n requests.
type Count int

// Pace says go now, until n requests have gone.
func (n Count) Pace(_ time.Duration, hits uint64) (time.Duration, bool) {
	return 0, hits >= uint64(n)
}

// Rate is 0: no rate, the workers set the pace.
func (n Count) Rate(time.Duration) float64 { return 0 }
