package main

import (
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// stats summarises one load. Latencies are those of the answers with the
// wanted status; anything else is counted as a failure, by status or error.
type stats struct {
	OK       int
	Failures map[string]int
	Elapsed  time.Duration
	P50, P99 time.Duration
}

// Rate is wanted answers per second.
func (s stats) Rate() float64 { return float64(s.OK) / s.Elapsed.Seconds() }

func (s stats) failed() (n int) {
	for _, c := range s.Failures {
		n += c
	}
	return n
}

// attack sends what next makes, paced by pace, for du or until next has
// no more, and calls each for every answer with the wanted status.
func attack(a *vegeta.Attacker, next vegeta.Targeter, pace vegeta.Pacer, du time.Duration, want int, each func(*vegeta.Result)) stats {
	s := stats{Failures: map[string]int{}}
	var lat []time.Duration
	start := time.Now()
	for res := range a.Attack(next, pace, du, "") {
		switch {
		case int(res.Code) == want:
			s.OK++
			lat = append(lat, res.Latency)
			if each != nil {
				each(res)
			}
		case res.Error != "" && res.Code == 0:
			s.Failures[res.Error]++
		default:
			s.Failures[fmt.Sprintf("%d %.160s", res.Code, res.Body)]++
		}
	}
	s.Elapsed = time.Since(start)
	slices.Sort(lat)
	s.P50, s.P99 = quantile(lat, 0.50), quantile(lat, 0.99)
	return s
}

// closedLoop is conns connections, each sending its next request as soon
// as its last is answered: as fast as the server goes.
func closedLoop(next vegeta.Targeter, conns int, du time.Duration, want int) stats {
	a := vegeta.NewAttacker(vegeta.Workers(uint64(conns)), vegeta.MaxWorkers(uint64(conns)),
		vegeta.Connections(conns), vegeta.MaxConnections(conns), vegeta.KeepAlive(true),
		vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
	return attack(a, next, vegeta.ConstantPacer{}, du, want, nil) // the zero rate is no limit
}

// openLoop offers rate requests a second whatever the answers take (more
// connections open when needed), and records when each 202 arrived, by
// its request id.
func openLoop(next vegeta.Targeter, rate int, du time.Duration) (stats, map[string]time.Time) {
	a := vegeta.NewAttacker(vegeta.Workers(64), vegeta.KeepAlive(true),
		vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
	got := map[string]time.Time{}
	s := attack(a, next, vegeta.ConstantPacer{Freq: rate, Per: time.Second}, du, http.StatusAccepted, func(r *vegeta.Result) {
		got[r.Headers.Get("X-Request-ID")] = r.Timestamp.Add(r.Latency)
	})
	return s, got
}

// quantile is the q-th quantile of sorted durations (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// registrations makes POSTs of calves (see calf) to url, numbered from
// the supply that numbers hands out, until it runs out.
func registrations(url, token string, async bool, run string, numbers *atomic.Int64, last int) vegeta.Targeter {
	today := time.Now().In(london)
	return func(t *vegeta.Target) error {
		n := int(numbers.Add(1) - 1)
		if n > last {
			return vegeta.ErrNoTargets
		}
		h := http.Header{"Authorization": {"Bearer " + token}, "Content-Type": {"application/json"},
			"X-Correlation-ID": {fmt.Sprintf("%s-%05d", run, n)}}
		if async {
			h.Set("x-Request-Mode", "async")
		}
		*t = vegeta.Target{Method: http.MethodPost, URL: url, Header: h, Body: calf(tagID(n), today)}
		return nil
	}
}
