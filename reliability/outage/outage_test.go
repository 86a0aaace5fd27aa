package outage

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store/storetest"
	"github.com/drover-registry/drover/reliability/internal/harness"
)

// requestTimeout is the server's --request-timeout: short, so that a
// blackholed query ends in a 504 quickly.
const requestTimeout = time.Second

// recoveryBound is the requirement: the service serves again
// within 5 seconds of the database returning.
const recoveryBound = 5 * time.Second

// minOutage is how long the database is gone at least.
const minOutage = 2 * time.Second

// TestOutage cuts the connection between a loaded server and PostgreSQL
// three ways (refusing new connections; swallowing them; freezing every
// connection, open or new, as a partition does) and checks every answer,
// the readiness probe, the recovery and that nothing acknowledged was
// lost. No answer comes later than maxAnswer, and the slowest is logged.
func TestOutage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		mode Mode
	}{{"refuse", Refuse}, {"blackhole", Blackhole}, {"stall", Stall}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testOutage(t, tc.mode)
		})
	}
}

func testOutage(t *testing.T, mode Mode) {
	dsn, proxy := throughProxy(t, storetest.PostgresURL(t))
	srv := startServer(t, dsn, "--request-timeout", requestTimeout.String(), "--rate-limit", "0", "--workers", "4")
	tok := harness.Token(t, srv.URL, "keeper1")

	l := newLoad(srv.URL, tok, "outage-"+t.Name()[len("TestOutage/"):])
	l.start(4)
	stopped := false
	defer func() {
		if !stopped {
			l.Stop()
		}
	}()
	until(t, "the load is served", func() bool { return l.acks() >= 12 })

	cutAt := time.Now()
	proxy.Cut(mode)
	until(t, "/readyz turns unready", func() bool {
		a := call(srv.URL, "", http.MethodGet, "/readyz", "")
		if a.Status != http.StatusOK && a.Status != http.StatusServiceUnavailable {
			t.Errorf("/readyz during the outage: %v", a)
		}
		return a.Status == http.StatusServiceUnavailable && a.RetryAfter != ""
	})
	// The outage lasts at least minOutage, and until several requests were
	// asked and answered inside it.
	until(t, "requests are answered during the outage", func() bool {
		return during(l, cutAt) >= 8 && time.Since(cutAt) >= minOutage
	})
	proxy.Restore()
	restoredAt := time.Now()

	recovered := recovery(t, srv.URL, l)
	took := recovered.Sub(restoredAt)
	t.Logf("%s: outage %s; recovered %s after restore", mode, restoredAt.Sub(cutAt).Round(time.Millisecond), took.Round(time.Millisecond))
	if took > recoveryBound {
		t.Errorf("recovered %s after the database returned; the bound is %s", took, recoveryBound)
	}
	until(t, "the load is served again", func() bool { return ackedSince(l, recovered) >= 8 })
	results := l.Stop()
	stopped = true

	checkAnswers(t, results, cutAt, restoredAt)
	checkKept(t, srv.URL, tok, results)
	t.Logf("%s: %d requests, %d acknowledged; %d \"job queue\" log lines", mode, len(results), l.acks(),
		strings.Count(srv.Log(), `"msg":"job queue"`))
}

// throughProxy starts a proxy to the database of dsn and returns dsn
// rewritten to go through it.
func throughProxy(t *testing.T, dsn string) (string, *Proxy) {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		t.Fatalf("%s must be a postgres:// URL with a host: %v", storetest.EnvPostgres, err)
	}
	host := u.Host
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(host, "5432")
	}
	p, err := NewProxy(host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	u.Host = p.Addr()
	return u.String(), p
}

// during counts the requests asked and answered after since.
func during(l *load, since time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.results {
		if !r.Start.Before(since) {
			n++
		}
	}
	return n
}

// ackedSince counts the requests asked after since and acknowledged.
func ackedSince(l *load, since time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.results {
		if !r.Start.Before(since) && r.acked() {
			n++
		}
	}
	return n
}

// recovery polls until /readyz is 200 and a transfer is acknowledged, and
// returns when both were.
func recovery(t *testing.T, base string, l *load) time.Time {
	t.Helper()
	ready := false
	var at time.Time
	until(t, "the service recovers", func() bool {
		if !ready {
			ready = call(base, "", http.MethodGet, "/readyz", "").Status == http.StatusOK
			return false
		}
		r := l.one(opTransfer)
		at = r.End
		return r.Answer.Status == http.StatusCreated
	})
	return at
}

// until polls cond every 20ms; the 2-minute limit is a guard against a
// hang, not a measurement.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
