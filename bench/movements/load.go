package main

import (
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/drover-registry/drover/internal/livestock"
)

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
// correlation id are new each time, and every body has the same size: in
// the order sent, or random UUIDs (random), whose unique index entries land
// on a different page each.
func transfer(run string, random bool) func(i int64) ([]byte, string) {
	today := livestock.UKDate(time.Now()).String() // the registry's today
	return func(i int64) ([]byte, string) {
		id := fmt.Sprintf("%s-%09d", run, i)
		if random {
			id = uuid.NewString()
		}
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
