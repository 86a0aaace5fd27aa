package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestQueueGate: with more jobs queued than --max-queued-jobs, every
// submission that would queue one more (the four request collections and
// an async registration) is refused with 503 R003 and Retry-After, while
// reads, holding validation and sync registrations are served. The queue
// here is jobs of a kind no worker takes, so it stays as long as the test
// needs; the submissions' bodies are empty, so that one admitted is a 400
// and adds nothing.
func TestQueueGate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{MaxQueuedJobs: 2})
		tok := b.token("keeper1")
		post := func(path string, headers ...string) response {
			return b.do(http.MethodPost, path, tok, strings.NewReader(`{}`), append([]string{"Content-Type", "application/json"}, headers...)...)
		}
		if res := post("/v1/TransferRequests"); res.status != http.StatusBadRequest {
			t.Fatalf("a submission with an empty queue = %d %s; want 400 (its body is empty)", res.status, res.body)
		}
		err := s.InTx(t.Context(), func(ctx context.Context, tx store.Tx) error {
			for range 3 {
				if _, err := tx.EnqueueJob(ctx, store.NewJob{Kind: "held by the test", Payload: []byte(`{}`)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The gate reads the queue at most once a second.
		deadline := time.Now().Add(5 * time.Second)
		for post("/v1/TransferRequests").status != http.StatusServiceUnavailable {
			if time.Now().After(deadline) {
				t.Fatal("3 jobs queued over a bound of 2, and submissions are still taken after 5 s")
			}
			time.Sleep(50 * time.Millisecond)
		}
		for _, path := range []string{"/v1/TransferRequests", "/v1/CorrectTransferRequests", "/v1/ReviewHoldingMovementRequests", "/v1/UndoRequests"} {
			res := post(path)
			if res.status != http.StatusServiceUnavailable || res.header.Get("Retry-After") != "5" ||
				!strings.Contains(string(res.body), `"R003"`) || !strings.Contains(string(res.body), "3 jobs are queued, over the limit of 2") {
				t.Errorf("POST %s with the queue full = %d %v %s; want 503, Retry-After 5, R003 naming the queue", path, res.status, res.header, res.body)
			}
		}
		if res := post("/v1/animals", "x-Request-Mode", "async"); res.status != http.StatusServiceUnavailable {
			t.Errorf("async registration with the queue full = %d %s; want 503", res.status, res.body)
		}
		if res := post("/v1/animals"); res.status != http.StatusBadRequest {
			t.Errorf("sync registration with the queue full = %d %s; want 400 (served: it queues nothing)", res.status, res.body)
		}
		if res := post("/v1/Holdings/ValidHoldings"); res.status != http.StatusBadRequest {
			t.Errorf("holding validation with the queue full = %d %s; want 400 (served: it queues nothing)", res.status, res.body)
		}
		if res := b.do(http.MethodGet, "/v1/TransferRequests", tok, nil); res.status != http.StatusOK {
			t.Errorf("a listing with the queue full = %d %s; want 200", res.status, res.body)
		}
		metrics := string(b.do(http.MethodGet, "/metrics", "", nil).body)
		if !strings.Contains(metrics, `drover_http_admission_rejected_total{class="queue"}`) {
			t.Error("/metrics does not count the refusals of class queue")
		}
	})
}
