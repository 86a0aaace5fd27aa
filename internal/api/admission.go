package api

import (
	"slices"
	"sync"
	"time"
)

// adaptiveLimit is a concurrency limit that follows latency, in the
// manner of Netflix's concurrency-limits and Envoy's adaptive concurrency:
// a fixed --max-in-flight lets a queue build on a saturated machine until
// every admitted request is slow, whereas this limit admits only as many
// requests as the machine serves without queueing, and refuses the rest at
// once (503), so that those admitted stay fast.
//
// Latencies are summarised by window (windowTime, or windowSamples, which
// also bounds memory). A window's statistic is its 90th percentile; the
// baseline is a low quantile of those statistics, tracked by a stepper that
// falls fast and rises slowly, so queueing that lasts (which raises every
// window) lifts it by little, while a server that really grew slower
// (a bigger database) is followed within a minute or so. Then, per window:
//
//   - statistic over tolerance × baseline, or the CPU saturated (see
//     schedSaturated): a queue is forming; if the limit bound (the
//     window's requests in flight reached it) it shrinks by decrease
//     (multiplicative), else it stays;
//   - otherwise, if the window used at least half the limit, it grows by
//     one (additive): a limit that nobody reaches proves nothing;
//
// always within [min, max]. A limit that did not bind is not cut, however
// slow the window: it refused nothing, so a smaller one would only refuse
// at the next burst what a light load can take. This is what lets the
// floors be 1 (see admission): noise in a light load's latencies never
// walks the limit down to where two requests at once are one too many.
// Writes and reads have a limit each (see admit).
type adaptiveLimit struct {
	mu       sync.Mutex
	limit    float64
	min, max float64
	inFlight int

	start   time.Time       // of the current window
	samples []time.Duration // of the current window
	peak    int             // most in flight during the current window

	baseline time.Duration // 0 until the first window closes

	// sched, when set, is the scheduling latency (p99) since its last
	// call; tests leave it nil or feed it.
	sched func() time.Duration
}

const (
	windowTime    = 100 * time.Millisecond
	windowSamples = 256
	minSamples    = 10  // a window shorter than this is extended
	tolerance     = 2.0 // statistic over baseline that counts as queueing
	decrease      = 0.75
)

// newAdaptiveLimit starts at initial, kept within [lo, hi].
func newAdaptiveLimit(initial, lo, hi int) *adaptiveLimit {
	lo, hi = max(lo, 1), max(hi, lo, 1)
	return &adaptiveLimit{limit: float64(min(max(initial, lo), hi)), min: float64(lo), max: float64(hi),
		samples: make([]time.Duration, 0, windowSamples)}
}

// acquire admits a request if fewer than the limit are in flight. A
// request admitted must be released.
func (l *adaptiveLimit) acquire() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight >= int(l.limit) {
		return false
	}
	l.inFlight++
	l.peak = max(l.peak, l.inFlight)
	return true
}

// release ends an admitted request that took rtt, finishing at now. A
// request whose latency says nothing about the load (a 4xx refused before
// any work) is released with sample false.
func (l *adaptiveLimit) release(now time.Time, rtt time.Duration, sample bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight--
	if !sample {
		return
	}
	if len(l.samples) == 0 {
		l.start = now
	}
	l.samples = append(l.samples, rtt)
	if len(l.samples) >= windowSamples || len(l.samples) >= minSamples && now.Sub(l.start) >= windowTime {
		l.endWindow()
	}
}

// endWindow adjusts the baseline and the limit from the window's samples.
func (l *adaptiveLimit) endWindow() {
	slices.Sort(l.samples)
	stat := l.samples[(len(l.samples)*9+9)/10-1] // 90th percentile, nearest rank
	used := float64(l.peak) >= l.limit/2
	binding := l.peak >= int(l.limit)
	l.samples, l.peak = l.samples[:0], l.inFlight
	saturated := l.sched != nil && l.sched() > schedSaturated // read every window, so each reading covers one
	switch {
	case l.baseline == 0:
		l.baseline = stat
		return
	case stat < l.baseline:
		l.baseline -= (l.baseline - stat) / 4
	default:
		l.baseline += (stat - l.baseline) / 1000
	}
	switch {
	case float64(stat) > tolerance*float64(l.baseline) || saturated:
		if binding {
			l.limit = max(l.min, l.limit*decrease)
		}
	case used:
		l.limit = min(l.max, l.limit+1)
	}
}

// current is the limit now, for the metrics.
func (l *adaptiveLimit) current() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return float64(int(l.limit))
}
