package main

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// The synthetic registry: holdings 0 to H-1, of which the first H/500 are
// markets and the next H/1000 abattoirs, the rest farms. Animals travel in
// lots along chains: farm → market → farm … → abattoir, a market stay a day
// or less, a farm stay one to six months. Three chains in five go through
// markets, so markets are the hubs most movements pass through. Half the
// lots are tagged cattle (one to six animals, each with its own tag), half
// sheep moved as a batch of 10 to 60. The last movement of a chain may be
// awaiting review, accepted, undone or rejected; the rest are completed.
const years = 5

var (
	firstDay = time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	lastDay  = firstDay.AddDate(years, 0, 0).AddDate(0, 0, -1)
	span     = int(lastDay.Sub(firstDay).Hours()/24) + 1
)

// shape is the registry's size.
type shape struct{ Holdings, Movements int }

func (s shape) markets() int        { return max(1, s.Holdings/500) }
func (s shape) abattoirs() int      { return max(1, s.Holdings/1000) }
func (s shape) isMarket(h int) bool { return h < s.markets() }

// cph is the CPH of holding i.
func cph(i int) string { return fmt.Sprintf("%02d/%03d/%04d", 10+i/10_000_000, i/10000%1000, i%10000) }

type row struct {
	ID                  int64
	Species             string
	Source, Destination int
	Transfer, Arrival   time.Time
	State               string
	Devices             []device
	Batch               int // animals in the batch line; 0 for a tagged lot
	BatchNumber         string
}

type device struct {
	Tag          string
	Prior        int
	PriorOnSince time.Time
}

type animal struct {
	Tag     string
	Holding int
	Since   time.Time
	Born    time.Time
}

// generate calls move for each movement, in id order, and born for each
// tagged animal once its last movement is made; the same seed gives the
// same registry, so each table of a COPY can be a pass of its own.
func generate(s shape, move func(row), born func(animal)) {
	rnd := rand.New(rand.NewPCG(22, 2026))
	m, a := s.markets(), s.abattoirs()
	farm := func() int { return m + a + rnd.IntN(s.Holdings-m-a) }
	id, lot := int64(0), 0
	for id < int64(s.Movements) {
		lot++
		tagged := lot%2 == 0
		at, since := farm(), firstDay.AddDate(0, 0, rnd.IntN(span))
		var tags []string
		if tagged {
			for i := range 1 + rnd.IntN(6) {
				tags = append(tags, livestock.MustCattleTag(fmt.Sprintf("%06d", lot%1_000_000), lot/1_000_000*10+i).String())
			}
		}
		birth := since.AddDate(-1, 0, 0)
		priorSince := make([]time.Time, len(tags))
		for i := range priorSince {
			priorSince[i] = birth
		}
		size := 10 + rnd.IntN(51)
		for steps := 1 + rnd.IntN(6); steps > 0 && id < int64(s.Movements); steps-- {
			leave := since.AddDate(0, 0, 30+rnd.IntN(150))
			var to int
			switch p := rnd.IntN(100); {
			case s.isMarket(at):
				leave, to = since.AddDate(0, 0, rnd.IntN(2)), farm()
				if p < 15 {
					to = m + rnd.IntN(a)
				}
			case p < 60:
				to = rnd.IntN(m)
			case p < 85:
				for to = farm(); to == at; to = farm() {
				}
			default:
				to = m + rnd.IntN(a)
			}
			if leave.After(lastDay) {
				break
			}
			id++
			r := row{ID: id, Species: "Cattle", Source: at, Destination: to, Transfer: leave, Arrival: leave, State: "Completed"}
			if !tagged {
				r.Species, r.Batch, r.BatchNumber = "Sheep", size, fmt.Sprintf("UK%06d", at%1_000_000)
			}
			for i, t := range tags {
				r.Devices = append(r.Devices, device{Tag: t, Prior: at, PriorOnSince: priorSince[i]})
			}
			last := steps == 1 || to >= m && to < m+a
			if last {
				switch p := rnd.IntN(100); {
				case p < 3:
					r.State, r.Arrival = "PendingReview", time.Time{}
				case p < 10:
					r.State, r.Arrival = "Accepted", leave.AddDate(0, 0, 1)
				case p < 12:
					r.State = "Undone"
				case p < 13:
					r.State = "Rejected"
				}
			}
			move(r)
			if r.State == "Completed" || r.State == "Accepted" {
				at, since = to, r.Arrival
				for i := range priorSince {
					priorSince[i] = since
				}
			}
			if last {
				break
			}
		}
		for _, t := range tags {
			born(animal{Tag: t, Holding: at, Since: since, Born: birth})
		}
	}
}
