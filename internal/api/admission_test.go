package api

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAdmissionAcquire checks the limit's rules one at a time: up to limit
// admitted at once, then up to waiting wait and the rest are refused at
// once; a waiter takes the first place that comes free; one that waits
// too long, or whose request ends, is refused and leaves its place in the
// wait.
func TestAdmissionAcquire(t *testing.T) {
	t.Parallel()
	a := newAdmission(2, 1, time.Hour)
	ctx := t.Context()
	for i := range 2 {
		if got := a.acquire(ctx); got != admitted {
			t.Fatalf("request %d under the limit: %v, want admitted", i+1, got)
		}
	}
	// The third waits; while it does, a fourth finds the wait full.
	third := make(chan refusal)
	go func() { third <- a.acquire(ctx) }()
	waitFor(t, func() bool { return a.waiting() == 1 })
	if got := a.acquire(ctx); got != full {
		t.Errorf("request over limit and wait: %v, want full", got)
	}
	a.release()
	if got := <-third; got != admitted {
		t.Errorf("the waiter after a release: %v, want admitted", got)
	}
	if a.inFlight() != 2 || a.waiting() != 0 {
		t.Errorf("in flight %v, waiting %v; want 2, 0", a.inFlight(), a.waiting())
	}

	// A waiter whose request ends is refused, and frees its place.
	cctx, cancel := context.WithCancel(ctx)
	left := make(chan refusal)
	go func() { left <- a.acquire(cctx) }()
	waitFor(t, func() bool { return a.waiting() == 1 })
	cancel()
	if got := <-left; got != gone {
		t.Errorf("a waiter whose context ended: %v, want gone", got)
	}
	if a.waiting() != 0 {
		t.Errorf("waiting %v after the cancelled waiter left, want 0", a.waiting())
	}

	// A waiter that waits maxWait is refused.
	short := newAdmission(1, 1, time.Millisecond)
	if short.acquire(ctx) != admitted {
		t.Fatal("the first request was refused")
	}
	if got := short.acquire(ctx); got != waited {
		t.Errorf("a waiter with the slot never freed: %v, want waited", got)
	}
	// With no wait, the request over the limit is refused at once.
	none := newAdmission(1, 0, time.Hour)
	none.acquire(ctx)
	if got := none.acquire(ctx); got != full {
		t.Errorf("over a limit with no wait: %v, want full", got)
	}
	if newAdmission(0, 10, time.Second) != nil {
		t.Error("a limit of 0 is not off")
	}
}

// waitFor polls cond, which a goroutine makes true, failing after 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
	}
}

// TestAdmissionNeverLeaks runs many requests at once, some whose contexts
// end while they wait, some whose handlers panic, through the middleware,
// and checks that every place is given back: a leak would refuse
// everything at last, a deadlock would hang the test.
func TestAdmissionNeverLeaks(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler), metrics: newMetrics(nil, nil), admission: newAdmission(4, 8, 50*time.Millisecond)}
	h := s.recoverPanics(s.admit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
		if r.Header.Get("Panic") != "" {
			panic("handler failed")
		}
		w.WriteHeader(http.StatusNoContent)
	})))
	var wg sync.WaitGroup
	for i := range 400 {
		wg.Go(func() {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if i%7 == 0 {
				go func() { time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond); cancel() }()
			}
			req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/v1/TransferRequests", nil)
			if i%5 == 0 {
				req.Header.Set("Panic", "yes")
			}
			h.ServeHTTP(httptest.NewRecorder(), req)
		})
	}
	wg.Wait()
	if a := s.admission; a.inFlight() != 0 || a.waiting() != 0 {
		t.Fatalf("after every request ended: %v in flight, %v waiting; want 0, 0", a.inFlight(), a.waiting())
	}
	for i := range 4 {
		if got := s.admission.acquire(t.Context()); got != admitted {
			t.Fatalf("place %d after the load: %v, want admitted", i+1, got)
		}
	}
}

// TestAdmit checks the middleware: with the only place taken and no
// wait, the next request is refused at once with 503, Retry-After and a
// problem body, and counted; once the place is given back, the next is
// served. The limit is one for reads and writes alike.
func TestAdmit(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler), metrics: newMetrics(nil, nil), admission: newAdmission(1, 0, 0)}
	s.metrics.watchAdmission(s.admission)
	entered, release := make(chan struct{}), make(chan struct{})
	h := s.admit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Block") != "" {
			close(entered)
			<-release
		}
		w.WriteHeader(http.StatusCreated)
	}))
	var wg sync.WaitGroup
	wg.Go(func() {
		req := httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", nil)
		req.Header.Set("Block", "yes")
		h.ServeHTTP(httptest.NewRecorder(), req)
	})
	<-entered
	over := httptest.NewRecorder()
	h.ServeHTTP(over, httptest.NewRequest(http.MethodGet, "/v1/TransferRequests", nil))
	scrape := httptest.NewRecorder()
	s.metrics.handler().ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	close(release)
	wg.Wait()
	after := httptest.NewRecorder()
	h.ServeHTTP(after, httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", nil))

	if over.Code != http.StatusServiceUnavailable || over.Header().Get("Retry-After") != "1" ||
		over.Header().Get("Content-Type") != "application/json" ||
		!strings.Contains(over.Body.String(), `"R003"`) || !strings.Contains(over.Body.String(), "the most served at once") {
		t.Errorf("read over the limit = %d %v %s; want 503, Retry-After 1, the movements error body with R003", over.Code, over.Header(), over.Body)
	}
	if after.Code != http.StatusCreated {
		t.Errorf("write after the place came free = %d; want admitted", after.Code)
	}
	for _, want := range []string{"drover_http_shed_total 1", "drover_http_admitted_requests 1", "drover_http_concurrency_limit 1", "drover_http_waiting_requests 0"} {
		if !strings.Contains(scrape.Body.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestAdmitWaits checks that a request over the limit waits for a place
// rather than being refused, and is served when one comes free.
func TestAdmitWaits(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler), metrics: newMetrics(nil, nil), admission: newAdmission(1, 1, time.Hour)}
	h := s.admit(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) }))
	if s.admission.acquire(t.Context()) != admitted {
		t.Fatal("the place was taken")
	}
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", nil))
	}()
	waitFor(t, func() bool { return s.admission.waiting() == 1 })
	s.admission.release()
	<-done
	if rec.Code != http.StatusCreated {
		t.Errorf("the waiting request = %d %s; want 201", rec.Code, rec.Body)
	}
}
