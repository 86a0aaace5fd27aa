package outage

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// maxAnswer bounds every answer, during the outage too: a request waits
// for its shared transaction, which ends at the latest deadline of the
// requests sharing it (sqldb/groupcommit/deadline.go); the latest of those came
// at most a request timeout after the earliest. Before jobs stopped
// extending that deadline a POST under stall waited 4 s.
const maxAnswer = 2*requestTimeout + 500*time.Millisecond

// checkAnswers checks every answer of the load: never a 500 or a transport
// error (a hang ends in the client's guard timeout), never later than
// maxAnswer; an answer asked and given while the database was gone is a
// 503 with Retry-After or a 504.
func checkAnswers(t *testing.T, results []result, cutAt, restoredAt time.Time) {
	t.Helper()
	counts := map[string]int{}
	var slowest result
	for _, r := range results {
		a := r.Answer
		counts[fmt.Sprintf("%s %d", r.Op, a.Status)]++
		if a.Took > slowest.Answer.Took {
			slowest = r
		}
		inside := !r.Start.Before(cutAt) && r.End.Before(restoredAt)
		if a.Took > maxAnswer {
			t.Errorf("%s answered after %v, past %v: %v", r.Op, a.Took, maxAnswer, a)
		}
		switch {
		case a.Err != nil:
			t.Errorf("%s: %v", r.Op, a)
		case a.Status == http.StatusServiceUnavailable && a.RetryAfter == "":
			t.Errorf("%s: 503 without Retry-After: %v", r.Op, a)
		case a.Status == http.StatusServiceUnavailable, a.Status == http.StatusGatewayTimeout:
		case inside:
			t.Errorf("%s during the outage: %v", r.Op, a)
		case !r.acked() && a.Status != http.StatusOK:
			t.Errorf("%s: %v", r.Op, a)
		}
	}
	t.Logf("answers: %v; slowest: %s, %v", counts, slowest.Op, slowest.Answer)
}

// checkKept reads back everything acknowledged: each transfer and each
// async registration reaches a final status, each calf registered (sync,
// or async and Completed) can be read.
func checkKept(t *testing.T, base, tok string, results []result) {
	t.Helper()
	for _, r := range results {
		if !r.acked() {
			continue
		}
		switch r.Op {
		case opTransfer:
			id := field(r.Answer.Body, "requestId")
			final(t, "TransferRequests("+id+")", func() (string, time.Duration) {
				a := call(base, tok, http.MethodGet, "/v1/TransferRequests("+id+")", "")
				if a.Status != http.StatusOK {
					t.Fatalf("acknowledged transfer %s: %v", id, a)
				}
				s := field(a.Body, "requestStatus")
				return map[string]string{"Success": "final", "CompletedWarning": "final", "Fail": "final", "QueueFail": "final"}[s], 50 * time.Millisecond
			})
		case opAnimalAsync:
			id := field(r.Answer.Body, "requestid")
			var status string
			final(t, "requeststatus/"+id, func() (string, time.Duration) {
				a := call(base, tok, http.MethodGet, "/v1/requeststatus/"+id, "")
				wait, _ := strconv.Atoi(a.RetryAfter)
				if a.Status == http.StatusTooManyRequests {
					return "", time.Duration(wait) * time.Second
				}
				if a.Status != http.StatusOK {
					t.Fatalf("acknowledged registration %s: %v", id, a)
				}
				status = field(a.Body, "status")
				if status == "Success" || status == "Fail" {
					return "final", 0
				}
				return "", time.Duration(max(wait, 1)) * time.Second
			})
			if status == "Success" {
				animal(t, base, tok, r.Tag)
			}
		case opAnimalSync:
			animal(t, base, tok, r.Tag)
		}
	}
}

func animal(t *testing.T, base, tok, tag string) {
	t.Helper()
	if a := call(base, tok, http.MethodGet, "/v1/animals/"+tag, ""); a.Status != http.StatusOK {
		t.Errorf("acknowledged calf %s: %v", tag, a)
	}
}

// final polls read until it reports "final", waiting as it asks between
// polls; the limit is a guard against a request that never ends.
func final(t *testing.T, what string, read func() (string, time.Duration)) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		s, wait := read()
		if s == "final" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never reached a final status", what)
		}
		time.Sleep(wait)
	}
}
