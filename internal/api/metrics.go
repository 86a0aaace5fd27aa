package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/store"
)

// metrics are the server's Prometheus metrics, on a registry of its own so
// that tests can run several servers in one process.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	inFlight prometheus.Gauge
	limited  prometheus.Counter
	shed     prometheus.Counter
	rejected *prometheus.CounterVec // by the queue gate (class queue)
}

// schedLatencies adds the runtime's histogram of how long goroutines
// waited, ready to run, for a CPU (go_sched_latencies_seconds) to the Go
// collector's defaults. When it climbs while the request latency in the
// handlers does not, requests are waiting before the handlers start: the
// server's CPUs are saturated, by it or by a neighbour.
var schedLatencies = collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/sched/latencies:seconds$`)}

// metricsStore is what the metrics read of the store at each scrape: the
// group commit's totals (store.HealthStore) and the job backlog
// (store.JobStore).
type metricsStore interface {
	GroupStats() store.GroupStats
	JobBacklog(ctx context.Context) (map[store.JobState]int, error)
}

func newMetrics(st metricsStore, js JobStats) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "drover_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "drover_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "drover_http_in_flight_requests", Help: "HTTP requests being served now.",
		}),
		limited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "drover_http_rate_limited_total", Help: "Requests refused with 429 by the per-user rate limit.",
		}),
		shed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "drover_http_shed_total", Help: "Requests refused with 503 by the concurrency limit (--max-in-flight): the wait for a place was full, too long, or abandoned.",
		}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "drover_http_admission_rejected_total", Help: "Submissions refused with 503 by the bound on queued jobs (class queue).",
		}, []string{"class"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.inFlight, m.limited, m.shed, m.rejected,
		collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(schedLatencies)), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		&queueCollector{store: st, desc: prometheus.NewDesc("drover_jobs",
			"Background jobs waiting (available: the queue depth) or given up (failed). Done jobs are not counted.",
			[]string{"state"}, nil)})
	// The series from the start, at 0: a dashboard's rate() of a series
	// that appears only with the first refusal misses that refusal.
	m.rejected.WithLabelValues("queue")
	if st != nil {
		m.watchGroupCommit(st)
	}
	if js != nil {
		m.watchJobs(js)
	}
	return m
}

// watchJobs exposes this replica's job attempts by outcome: a queue whose
// depth grows while done stays flat is stalled (a lock held elsewhere, a
// database gone), and one with retries or failures rising is failing.
func (m *metrics) watchJobs(js JobStats) {
	for _, o := range []struct {
		outcome string
		count   func(jobs.Stats) uint64
	}{
		{"done", func(s jobs.Stats) uint64 { return s.Done }},
		{"retried", func(s jobs.Stats) uint64 { return s.Retried }},
		{"failed", func(s jobs.Stats) uint64 { return s.Failed }},
	} {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "drover_job_attempts_total",
			Help:        "Job attempts this replica ran, by outcome: done (applied), retried (failed, due again), failed (given up).",
			ConstLabels: prometheus.Labels{"outcome": o.outcome}}, func() float64 { return float64(o.count(js.Stats())) }))
	}
}

// watchGroupCommit exposes the store's group-commit totals: the commits'
// rate, their mean size (calls ÷ commits) and mean time (seconds ÷
// commits) are where a slow disk or an overloaded writer shows first; and
// the histograms of commit and group times, where its stalls show.
func (m *metrics) watchGroupCommit(st metricsStore) {
	desc := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, nil, nil) }
	m.reg.MustRegister(groupCollector{st: st,
		commits: desc("drover_store_group_commits_total", "Shared transactions (group commits) committed."),
		calls:   desc("drover_store_group_calls_total", "Writes (submissions, job runs and retries) kept by those commits."),
		seconds: desc("drover_store_group_commit_seconds_total", "Time spent committing shared transactions "+
			"(the sum of drover_store_group_commit_duration_seconds, kept for the dashboards that read it)."),
		failures: desc("drover_store_group_commit_failures_total", "Shared transactions whose COMMIT failed."),
		commit:   desc("drover_store_group_commit_duration_seconds", "Group commits by the time their COMMIT took (the disk's fsync on SQLite)."),
		group:    desc("drover_store_group_duration_seconds", "Group commits by the time they held the writer, from BEGIN to the end of COMMIT."),
	})
}

// groupCollector exposes store.GroupStats, which the store keeps itself
// (it knows nothing of Prometheus). It reads them once a scrape, so that
// the figures of one scrape agree: read one metric at a time, a scrape
// could count a commit and not yet its calls.
type groupCollector struct {
	st                                               metricsStore
	commits, calls, seconds, failures, commit, group *prometheus.Desc
}

func (g groupCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{g.commits, g.calls, g.seconds, g.failures, g.commit, g.group} {
		ch <- d
	}
}

func (g groupCollector) Collect(ch chan<- prometheus.Metric) {
	s := g.st.GroupStats()
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	counter(g.commits, float64(s.Commits))
	counter(g.calls, float64(s.Calls))
	counter(g.seconds, s.Commit.Sum.Seconds())
	counter(g.failures, float64(s.Failed))
	ch <- constHistogram(g.commit, s.Commit)
	ch <- constHistogram(g.group, s.Group)
}

// constHistogram turns h's counts by bucket into Prometheus's cumulative
// ones.
func constHistogram(d *prometheus.Desc, h store.Histogram) prometheus.Metric {
	buckets := make(map[float64]uint64, len(store.GroupBuckets))
	var n uint64
	for i, le := range store.GroupBuckets {
		n += uint64(h.Counts[i])
		buckets[le.Seconds()] = n
	}
	n += uint64(h.Counts[len(store.GroupBuckets)])
	return prometheus.MustNewConstHistogram(d, n, h.Sum.Seconds(), buckets)
}

// watchAdmission exposes how many requests the concurrency limit is
// serving and how many wait for a place, beside the limit itself.
func (m *metrics) watchAdmission(a *admission) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "drover_http_admitted_requests",
			Help: "Requests holding a place under the concurrency limit now."}, a.inFlight),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "drover_http_waiting_requests",
			Help: "Requests waiting for a place under the concurrency limit now."}, a.waiting),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "drover_http_concurrency_limit",
			Help: "The concurrency limit: requests served at once (--max-in-flight)."}, func() float64 { return float64(cap(a.slots)) }))
}

func (m *metrics) observe(method, route string, status int, d time.Duration) {
	method = methodLabel(method)
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(d.Seconds())
}

// methodLabel is the method as a label: the methods of RFC 9110 and PATCH
// as they are, any other "other", so that a client inventing methods
// cannot make a series of each (and a histogram of every one).
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		return method
	}
	return "other"
}

// handler serves the metrics. A series that cannot be read (drover_jobs,
// while the database is down) is left out and logged, and the rest are
// served: an outage is when an operator most needs them, and the error,
// which names the database's user and address, is not for an endpoint
// without a token.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, ErrorHandling: promhttp.ContinueOnError,
		ErrorLog: scrapeLog{}})
}

// scrapeLog logs what a scrape could not read.
type scrapeLog struct{}

func (scrapeLog) Println(v ...any) {
	slog.Warn("metrics: a series could not be read", "error", fmt.Sprint(v...))
}

// routePattern is the route the request matched, or "unmatched", so that
// metrics have one series per route rather than one per URL.
func routePattern(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			return p
		}
	}
	return "unmatched"
}

// queueCollector reads the job counts from the store at scrape time.
type queueCollector struct {
	store metricsStore
	desc  *prometheus.Desc
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	if c.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	// Not JobCounts: counting the done jobs read the whole table at every
	// scrape, and on a registry of a few hundred thousand jobs missed the
	// 2 s below while the queue drained.
	counts, err := c.store.JobBacklog(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	for _, state := range []store.JobState{store.JobAvailable, store.JobFailed} {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(counts[state]), string(state))
	}
}
