package main

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/drover-registry/drover/bench/internal/rawhttp"
)

// stats summarises one load: answers by status, the latencies of the
// admitted ones (2xx) and of the refused ones (429 and 503).
type stats struct {
	Sent              int
	Admitted, Refused int
	TooMany, Busy     int            // 429s, 503s
	Other5xx          map[string]int // any other 5xx, by status and body
	Other             map[string]int // anything else: 4xx, client errors and timeouts
	Elapsed           time.Duration
	AdmittedLat       []time.Duration // sorted
	RefusedLat        []time.Duration // sorted

	// The admitted answers' wire latencies (rawhttp.Result.Wire), sorted:
	// to when the kernel received them rather than when the generator
	// read them. Unstamped is how many had none (vegeta, or an answer
	// before the kernel began stamping); theirs is their Latency, an
	// upper bound.
	AdmittedWire []time.Duration
	Unstamped    int
}

// add is s and t together, as if one load: counts and times summed,
// latencies merged and sorted.
func (s stats) add(t stats) stats {
	u := stats{Sent: s.Sent + t.Sent, Admitted: s.Admitted + t.Admitted, Refused: s.Refused + t.Refused,
		TooMany: s.TooMany + t.TooMany, Busy: s.Busy + t.Busy, Elapsed: s.Elapsed + t.Elapsed,
		Other5xx: map[string]int{}, Other: map[string]int{}, Unstamped: s.Unstamped + t.Unstamped}
	for _, m := range []map[string]int{s.Other5xx, t.Other5xx} {
		for k, v := range m {
			u.Other5xx[k] += v
		}
	}
	for _, m := range []map[string]int{s.Other, t.Other} {
		for k, v := range m {
			u.Other[k] += v
		}
	}
	u.AdmittedLat = slices.Sorted(slices.Values(slices.Concat(s.AdmittedLat, t.AdmittedLat)))
	u.RefusedLat = slices.Sorted(slices.Values(slices.Concat(s.RefusedLat, t.RefusedLat)))
	u.AdmittedWire = slices.Sorted(slices.Values(slices.Concat(s.AdmittedWire, t.AdmittedWire)))
	return u
}

// AdmittedRate is the 2xx answers per second.
func (s stats) AdmittedRate() float64 { return float64(s.Admitted) / s.Elapsed.Seconds() }

// SentRate is the requests sent per second: the offered rate achieved.
func (s stats) SentRate() float64 { return float64(s.Sent) / s.Elapsed.Seconds() }

// generator sends the loads to the server at base, with rawhttp if raw,
// else with vegeta (the open loop) and net/http (the closed loop).
type generator struct {
	base string
	raw  bool
}

// attack sends what next makes, paced by pace, for du, and sorts the
// answers.
func attack(a *vegeta.Attacker, next vegeta.Targeter, pace vegeta.Pacer, du time.Duration) stats {
	return collect(unstamped(a.Attack(next, pace, du, "")))
}

// unstamped passes vegeta's results on as rawhttp's, without wire
// latencies.
func unstamped(results <-chan *vegeta.Result) <-chan *rawhttp.Result {
	out := make(chan *rawhttp.Result, cap(results))
	go func() {
		defer close(out)
		for res := range results {
			out <- &rawhttp.Result{Result: *res}
		}
	}()
	return out
}

// collect sorts the answers until results is closed.
func collect(results <-chan *rawhttp.Result) stats {
	s := stats{Other5xx: map[string]int{}, Other: map[string]int{}}
	start := time.Now()
	for res := range results {
		s.Sent++
		switch c := int(res.Code); {
		case c >= 200 && c < 300:
			s.Admitted++
			s.AdmittedLat = append(s.AdmittedLat, res.Latency)
			if res.Wire > 0 {
				s.AdmittedWire = append(s.AdmittedWire, res.Wire)
			} else {
				s.Unstamped++
				s.AdmittedWire = append(s.AdmittedWire, res.Latency)
			}
		case refused(c):
			s.Refused++
			s.RefusedLat = append(s.RefusedLat, res.Latency)
			if c == http.StatusTooManyRequests {
				s.TooMany++
			} else {
				s.Busy++
			}
		case c >= 500:
			s.Other5xx[fmt.Sprintf("%d %.120s", c, res.Body)]++
		case c == 0:
			s.Other[res.Error]++
		default:
			s.Other[fmt.Sprintf("%d %.120s", c, res.Body)]++
		}
	}
	s.Elapsed = time.Since(start)
	slices.Sort(s.AdmittedLat)
	slices.Sort(s.RefusedLat)
	slices.Sort(s.AdmittedWire)
	return s
}

func attacker(workers, maxWorkers int) *vegeta.Attacker {
	return vegeta.NewAttacker(vegeta.Workers(uint64(workers)), vegeta.MaxWorkers(uint64(maxWorkers)),
		vegeta.Connections(maxWorkers), vegeta.MaxConnections(maxWorkers), vegeta.KeepAlive(true),
		vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow), vegeta.MaxBody(160))
}

// closedLoop is conns connections, each sending its next request as soon
// as its last is answered (as fast as the server goes), or refusedPause
// after a refusal: a client that resent a refused request at once would
// measure how fast the server refuses, spending on refusals the CPU the
// capacity is measured by (the load generator shares the machine).
func (g generator) closedLoop(next vegeta.Targeter, conns int, du time.Duration) (stats, error) {
	if g.raw {
		results, err := rawhttp.Closed(g.base, next, conns, du, refusedPause, refused)
		if err != nil {
			return stats{}, err
		}
		return collect(results), nil
	}
	client := &http.Client{Timeout: 30 * time.Second,
		Transport:     &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer client.CloseIdleConnections()
	results := make(chan *rawhttp.Result, conns)
	end := time.Now().Add(du)
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			for time.Now().Before(end) {
				var t vegeta.Target
				if err := next(&t); err != nil {
					return
				}
				res := send(client, t)
				results <- &rawhttp.Result{Result: *res}
				if refused(int(res.Code)) {
					time.Sleep(refusedPause)
				}
			}
		})
	}
	go func() { wg.Wait(); close(results) }()
	return collect(results), nil
}

const refusedPause = 50 * time.Millisecond

// refused is whether an answer's status is a refusal: 429 or 503.
func refused(code int) bool {
	return code == http.StatusServiceUnavailable || code == http.StatusTooManyRequests
}

// send does one request and reads its answer, as vegeta would.
func send(client *http.Client, t vegeta.Target) *vegeta.Result {
	res := &vegeta.Result{Timestamp: time.Now()}
	req, err := t.Request()
	if err != nil {
		res.Error = err.Error()
		return res
	}
	r, err := client.Do(req)
	if err != nil {
		res.Error, res.Latency = err.Error(), time.Since(res.Timestamp)
		return res
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 160))
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	res.Code, res.Body, res.Latency = uint16(r.StatusCode), body, time.Since(res.Timestamp)
	return res
}

// openLoop offers rate requests a second whatever the answers take, from
// up to outstanding requests at once: when all of them wait, the next
// request is late, and the achieved rate (Sent / Elapsed) says so.
func (g generator) openLoop(next vegeta.Targeter, rate, outstanding int, du time.Duration) (stats, error) {
	if g.raw {
		results, err := rawhttp.Open(g.base, next, rate, outstanding, du)
		if err != nil {
			return stats{}, err
		}
		return collect(results), nil
	}
	return attack(attacker(min(64, outstanding), outstanding), next,
		vegeta.ConstantPacer{Freq: max(rate, 1), Per: time.Second}, du), nil
}
