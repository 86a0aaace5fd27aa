package outage

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
)

// keeper1 is the sandbox keeper the load acts as.
var keeper1 = sandbox.Keepers[0]

// The load: a few clients as keeper1, each posting transfers, registering
// calves (sync and async) and reading the listing in turn, and recording
// every answer with when it was asked and answered.

// op is one kind of request the clients make.
type op int

const (
	opTransfer op = iota
	opAnimalSync
	opAnimalAsync
	opList
	numOps
)

func (o op) String() string {
	return [...]string{"POST transfer", "POST animal sync", "POST animal async", "GET list"}[o]
}

// result is one request of the load.
type result struct {
	Op         op
	Start, End time.Time
	Answer     answer
	Tag        string // the calf registered, for animals
}

// acked reports whether the service acknowledged the request: then what
// it stored must be found afterwards.
func (r result) acked() bool {
	s := r.Answer.Status
	return r.Answer.Err == nil && (s == http.StatusOK || s == http.StatusCreated || s == http.StatusAccepted) && r.Op != opList
}

// load is the clients and what they saw.
type load struct {
	base, token string
	run         string
	today       livestock.Date
	tags        atomic.Int64 // calf numbers handed out: the sandbox issues 101–150
	seq         atomic.Int64
	stop        chan struct{}
	wg          sync.WaitGroup

	mu      sync.Mutex
	results []result
	oks     int // acknowledged so far
}

func newLoad(base, token, run string) *load {
	l := &load{base: base, token: token, run: run, today: livestock.UKDate(time.Now()), stop: make(chan struct{})}
	l.tags.Store(100)
	return l
}

// start runs n clients until Stop.
func (l *load) start(n int) {
	for c := range n {
		l.wg.Go(func() {
			for i := c; ; i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				r := l.one(op(i % int(numOps)))
				if r.Answer.Status == http.StatusServiceUnavailable {
					// What a client should do, if sooner than Retry-After
					// asks: the test wants many answers during the outage.
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}

// Stop ends the clients and returns every result.
func (l *load) Stop() []result {
	close(l.stop)
	l.wg.Wait()
	return l.results
}

// acks is how many requests have been acknowledged so far.
func (l *load) acks() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.oks
}

// one makes a request of kind o and records it.
func (l *load) one(o op) result {
	r := result{Op: o, Start: time.Now()}
	switch o {
	case opTransfer:
		i := l.seq.Add(1)
		r.Answer = call(l.base, l.token, http.MethodPost, "/v1/TransferRequests", transfer(l.today, fmt.Sprintf("%s-%06d", l.run, i), i))
	case opAnimalSync, opAnimalAsync:
		n := l.tags.Add(1)
		if n > 150 { // every issued tag tried: read instead
			r.Op = opList
			r.Answer = call(l.base, l.token, http.MethodGet, "/v1/animals/UK442501300001", "")
			break
		}
		r.Tag = keeper1.CalfTag(int(n)).String()
		mode := "sync"
		if o == opAnimalAsync {
			mode = "async"
		}
		r.Answer = call(l.base, l.token, http.MethodPost, "/v1/animals", string(keeper1.CalfRegistration(r.Tag, l.today)), "x-Request-Mode", mode)
	case opList:
		r.Answer = call(l.base, l.token, http.MethodGet, "/v1/TransferRequests?$top=5", "")
	}
	r.End = time.Now()
	l.mu.Lock()
	l.results = append(l.results, r)
	if r.acked() {
		l.oks++
	}
	l.mu.Unlock()
	return r
}

// transfer is a move of one sheep of keeper1's from 01/100/0257 to
// 01/100/0258 today (bench/movements' body).
func transfer(today livestock.Date, trackingID string, i int64) string {
	return fmt.Sprintf(`{"content":{"transferDate":"%s","species":"Sheep","userHolding":"01/100/0257",`+
		`"sourceHolding":"01/100/0257","destinationHolding":"01/100/0258","animalCount":1,"trackingId":"%s",`+
		`"movementGroups":[{"devices":[{"tagNumber":"UK0130181 %05d"}]}]}}`,
		today.String(), trackingID, 1+i%25)
}
