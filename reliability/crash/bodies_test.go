package crash

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
)

// keeper1 is the sandbox keeper the load acts as.
var keeper1 = sandbox.Keepers[0]

// What the load sends, all as keeper1: transfers of its sandbox sheep
// between its producer holding 01/100/0257 and its sale yard 01/100/0258
// (in either direction, so that some succeed and some fail at the job,
// which is fine: both are final), and birth registrations of calves of
// its cow UK442501300001, each wearing a new ear tag of its herd 442501.

// kind is what a request does.
type kind int

const (
	transfer kind = iota // POST /v1/TransferRequests: 201, queued
	syncReg              // POST /v1/animals: 200, done
	asyncReg             // POST /v1/animals, x-Request-Mode: async: 202, queued
)

func (k kind) String() string { return [...]string{"transfer", "sync", "async"}[k] }

// Herd 442501's animal numbers 00001–00005 are the sandbox's cows and
// 00101–00150 are issued but unregistered; the test issues firstTag
// onwards itself (issueTags), as bench/registration does.
const (
	firstTag = 151
	tagLimit = 30150 // far more than a run registers
)

// sheep is keeper1's sandbox sheep i (0–49): flocks 130181 and 130182.
func sheep(i int) string { return fmt.Sprintf("UK013018%d %05d", 1+i/25, 1+i%25) }

// generator makes the requests of a whole run: correlation ids and tags
// are never reused across cycles.
type generator struct {
	run   string // makes correlation ids unique across runs on one database
	n     atomic.Int64
	tags  atomic.Int64 // the next animal number to register
	today livestock.Date
}

func newGenerator(run string) *generator {
	g := &generator{run: run, today: livestock.UKDate(time.Now())}
	g.tags.Store(firstTag)
	return g
}

// next is a new request: four in ten transfers, three sync and three
// async registrations, until the issued tags run out.
func (g *generator) next(cycle int) *entry {
	i := g.n.Add(1)
	e := &entry{cycle: cycle, corr: fmt.Sprintf("%s-%07d", g.run, i), kind: transfer}
	switch i % 10 {
	case 4, 5, 6:
		e.kind = syncReg
	case 7, 8, 9:
		e.kind = asyncReg
	}
	if e.kind != transfer {
		n := int(g.tags.Add(1) - 1)
		if n > tagLimit {
			e.kind = transfer
		} else {
			e.tag = keeper1.CalfTag(n).String()
			e.body = keeper1.CalfRegistration(e.tag, g.today)
			return e
		}
	}
	a := rand.IntN(50)
	from, to := "01/100/0257", "01/100/0258"
	if rand.IntN(2) == 0 {
		from, to = to, from
	}
	e.tag = sheep(a)
	e.body = fmt.Appendf(nil, `{"content":{"transferDate":%q,"species":"Sheep","userHolding":%q,`+
		`"sourceHolding":%q,"destinationHolding":%q,"animalCount":1,"trackingId":%q,`+
		`"movementGroups":[{"devices":[{"tagNumber":%q}]}]}}`, g.today.String(), from, from, to, e.corr, e.tag)
	return e
}
