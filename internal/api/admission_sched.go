package api

import (
	"math"
	rtmetrics "runtime/metrics"
	"time"
)

// schedSaturated is the scheduling latency, at the 99th percentile of a
// window, above which the CPU counts as saturated. A request's wait for a
// CPU before it even reaches admit (reading it, routing it) is invisible
// to the latency admit measures; when refusals, background jobs or other
// processes take the CPU, this is where the queue shows. Half Go's 10 ms
// preemption slice: goroutines are queueing behind busy ones.
const schedSaturated = 5 * time.Millisecond

// schedWatch reads the Go runtime's histogram of the time goroutines
// spent runnable before running, and gives the 99th percentile of what
// was added since its last reading.
type schedWatch struct {
	sample []rtmetrics.Sample
	prev   []uint64
}

func newSchedWatch() *schedWatch {
	return &schedWatch{sample: []rtmetrics.Sample{{Name: "/sched/latencies:seconds"}}}
}

// p99 is the 99th percentile of the scheduling latencies since the last
// call (an upper bucket bound), 0 when there were none. Not safe for
// concurrent use: each adaptiveLimit has its own, under its lock.
func (w *schedWatch) p99() time.Duration {
	rtmetrics.Read(w.sample)
	if w.sample[0].Value.Kind() != rtmetrics.KindFloat64Histogram {
		return 0
	}
	h := w.sample[0].Value.Float64Histogram()
	delta := make([]uint64, len(h.Counts))
	var total uint64
	for i, c := range h.Counts {
		if i < len(w.prev) {
			c -= w.prev[i]
		}
		delta[i], total = c, total+c
	}
	w.prev = append(w.prev[:0], h.Counts...)
	return time.Duration(histQuantile(delta, h.Buckets, total, 0.99) * float64(time.Second))
}

// histQuantile is the upper bound of the bucket holding the q-th quantile
// of counts (buckets has one more entry than counts: their boundaries).
func histQuantile(counts []uint64, buckets []float64, total uint64, q float64) float64 {
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, c := range counts {
		if seen += c; seen >= rank {
			if hi := buckets[i+1]; !math.IsInf(hi, 1) {
				return hi
			}
			return buckets[i]
		}
	}
	return buckets[len(buckets)-1]
}
