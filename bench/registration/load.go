package main

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/drover-registry/drover/bench/internal/load"
	"github.com/drover-registry/drover/internal/livestock"
)

// openLoop offers rate requests a second whatever the answers take (more
// connections open when needed), counts those answered with status want,
// and records when each answer arrived, by its request id.
func openLoop(next vegeta.Targeter, rate int, du time.Duration, want int) (load.Stats, map[string]time.Time) {
	got := map[string]time.Time{}
	s := load.Run{Attacker: load.OpenAttacker(64), Pacer: load.PerSecond(rate), Duration: du, Want: want,
		Each: func(r *vegeta.Result) { got[r.Headers.Get("X-Request-ID")] = r.Timestamp.Add(r.Latency) }}.Send(next)[""]
	return s, got
}

// registrations makes POSTs of calves (keeper1.CalfRegistration) to url, numbered from
// the supply that numbers hands out, until it runs out.
func registrations(url, token string, async bool, run string, numbers *atomic.Int64, last int) vegeta.Targeter {
	today := livestock.UKDate(time.Now())
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
		*t = vegeta.Target{Method: http.MethodPost, URL: url, Header: h, Body: keeper1.CalfRegistration(tagID(n), today)}
		return nil
	}
}
