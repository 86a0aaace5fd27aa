package main

import (
	"fmt"
	"net/http"
	"net/url"
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

func (s stats) failed() int {
	n := 0
	for _, c := range s.Failures {
		n += c
	}
	return n
}

// load sends the targets next makes from conns connections, each sending
// its next request as soon as its last is answered (a closed loop, as
// fast as the server goes), for du, or until count requests when count
// is positive.
func load(next vegeta.Targeter, conns int, du time.Duration, count int, want int) stats {
	return loadBy(next, conns, du, count, want, func(*vegeta.Result) string { return "" })[""]
}

// loadBy is load with the answers summarised apart by key.
func loadBy(next vegeta.Targeter, conns int, du time.Duration, count, want int, key func(*vegeta.Result) string) map[string]stats {
	a := vegeta.NewAttacker(vegeta.Workers(uint64(conns)), vegeta.MaxWorkers(uint64(conns)),
		vegeta.Connections(conns), vegeta.MaxConnections(conns), vegeta.KeepAlive(true),
		vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
	var pace vegeta.Pacer = vegeta.ConstantPacer{} // the zero rate is no limit: the workers set the pace
	if count > 0 {
		pace = countPacer(count)
	}
	all, lat := map[string]stats{}, map[string][]time.Duration{}
	start := time.Now()
	for res := range a.Attack(next, pace, du, "") {
		k := key(res)
		s := all[k]
		if s.Failures == nil {
			s.Failures = map[string]int{}
		}
		switch {
		case int(res.Code) == want:
			s.OK++
			lat[k] = append(lat[k], res.Latency)
		case res.Error != "" && res.Code == 0:
			s.Failures[res.Error]++
		default:
			s.Failures[fmt.Sprintf("%d %.120s", res.Code, res.Body)]++
		}
		all[k] = s
	}
	for k, s := range all {
		s.Elapsed = time.Since(start)
		slices.Sort(lat[k])
		s.P50, s.P99 = quantile(lat[k], 0.50), quantile(lat[k], 0.99)
		all[k] = s
	}
	return all
}

// quantile is the q-th quantile of sorted latencies (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// countPacer lets the workers go as fast as they can until n requests.
type countPacer int

func (n countPacer) Pace(_ time.Duration, hits uint64) (time.Duration, bool) {
	return 0, hits >= uint64(n)
}
func (n countPacer) Rate(time.Duration) float64 { return 0 }

// targets makes requests to what urlOf gives for the i-th, with the token,
// and the body and correlation id that post gives (none when post is nil).
func targets(method, token string, urlOf func(i int64) string, post func(i int64) ([]byte, string)) vegeta.Targeter {
	var n atomic.Int64
	return func(t *vegeta.Target) error {
		i := n.Add(1)
		*t = vegeta.Target{Method: method, URL: urlOf(i), Header: http.Header{"Authorization": {"Bearer " + token}}}
		if post != nil {
			body, correlation := post(i)
			t.Body = body
			t.Header.Set("Content-Type", "application/json")
			t.Header.Set("X-Correlation-ID", correlation)
		}
		return nil
	}
}

// transfer is the i-th POST of a run: keeper1 moves one sheep from its
// producer holding to its own sale yard (no review) today. Every one is
// valid at submission (201, Pending); the job fails most later, as a tag
// moves once until its move is reviewed or undone. The trackingId and the
// correlation id are new each time, and every body has the same size.
func transfer(run string) func(i int64) ([]byte, string) {
	today := time.Now().In(london).Format(time.DateOnly)
	return func(i int64) ([]byte, string) {
		id := fmt.Sprintf("%s-%09d", run, i)
		return fmt.Appendf(nil, `{"content":{"transferDate":"%s","species":"Sheep","userHolding":"01/100/0257",`+
			`"sourceHolding":"01/100/0257","destinationHolding":"01/100/0258","animalCount":1,"trackingId":"%s",`+
			`"movementGroups":[{"devices":[{"tagNumber":"UK0130181 %05d"}]}]}}`, today, id, 1+i%25), id
	}
}

// month is the i-th request for a month of the built registry, one of
// its 24 months in turn: at most 100 requests dated in it.
func month(base string) func(i int64) string {
	return func(i int64) string {
		from := firstDay.AddDate(0, int(i%24), 0)
		to := from.AddDate(0, 1, -1)
		q := url.Values{"$top": {"100"}, "$filter": {fmt.Sprintf("movementDate ge %sT00:00:00Z and movementDate le %sT23:59:59Z",
			from.Format(time.DateOnly), to.Format(time.DateOnly))}}
		return base + "/v1/TransferRequests?" + q.Encode()
	}
}
