// Package sandbox describes the data a sandbox starts with, shaped like the
// live service's sandbox: two keepers with one holding of each type, flocks
// and herds with tags on their producer holdings, a lot of sheep at each
// sale yard, registered cows to use as dams, ear tags issued but not yet
// registered, and an inspector.
//
// The data is built here as a store.Seed; the store writes it once, on the
// first start of a sandbox, and never again.
package sandbox

import (
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Keeper describes one sandbox keeper.
type Keeper struct {
	Name       string
	FirstCPH   int      // holding number of the first of seven holdings
	MHS        string   // the abattoir's MHS
	SheepMarks []string // flock marks on the producer holding
	GoatMarks  []string
	DeerMark   string
	HerdMark   string // cattle herd mark on the producer holding
	MarketMark string // a sheep flock whose MarketLot animals are at the sale yard
}

// Keepers are the sandbox's two keepers.
var Keepers = []Keeper{
	{Name: "keeper1", FirstCPH: 253, MHS: "0035", SheepMarks: []string{"130181", "130182"},
		GoatMarks: []string{"130183", "130184"}, DeerMark: "130185", HerdMark: "442501", MarketMark: "130191"},
	{Name: "keeper2", FirstCPH: 260, MHS: "0036", SheepMarks: []string{"130186", "130187"},
		GoatMarks: []string{"130188", "130189"}, DeerMark: "130190", HerdMark: "442502", MarketMark: "130192"},
}

// Inspector is the user who reads every holding and acts for none.
const Inspector = "inspector"

const (
	tagsPerFlock   = 25
	cowsPerHerd    = 5   // animal numbers 00001–00005: registered adult cows
	firstIssued    = 101 // animal numbers 00101–00150: issued, not registered
	lastIssued     = 150
	producerOffset = 4 // the producer is the fifth holding of each keeper
	saleYardOffset = 5 // the sale yard (market) the sixth
	// MarketLot is how many sheep of each keeper's MarketMark flock are
	// at their sale yard: another keeper may report them moved on to
	// their own holding with no one's consent, as markets' departures are
	// reported by those who receive the animals.
	MarketLot = 10
)

// Since is the date every sandbox animal was born by and has been on its
// holding since.
var Since = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// ProducerCPH is the producer holding of keeper k, where the flocks are.
func (k Keeper) ProducerCPH() livestock.CPH { return k.holding(producerOffset) }

// SaleYardCPH is the sale yard (a market) of keeper k, where the market
// lot is.
func (k Keeper) SaleYardCPH() livestock.CPH { return k.holding(saleYardOffset) }

// holdingName is the property name of k's holding of type t, such as
// "Keeper1 Producer Farm".
func (k Keeper) holdingName(t livestock.HoldingType) string {
	return strings.ToUpper(k.Name[:1]) + k.Name[1:] + " " + strings.ToUpper(string(t[:1])) + string(t[1:]) + " Farm"
}

func (k Keeper) holding(i int) livestock.CPH {
	return livestock.MustCPH(fmt.Sprintf("01/100/%04d", k.FirstCPH+i))
}

// Data builds the sandbox seed. Passwords equal user names; cost is the
// bcrypt cost (bcrypt.DefaultCost in a real sandbox; tests may go lower).
func Data(cost int) (store.Seed, error) {
	var s store.Seed
	for _, k := range Keepers {
		var cphs []livestock.CPH
		for i, t := range livestock.HoldingTypes {
			h := livestock.Holding{CPH: k.holding(i), Type: t, Name: k.holdingName(t)}
			if t == livestock.HoldingAbattoir {
				m, err := livestock.ParseMHS(k.MHS)
				if err != nil {
					return store.Seed{}, err
				}
				h.MHS = m
			}
			s.Holdings = append(s.Holdings, h)
			cphs = append(cphs, h.CPH)
		}
		u, err := user(k.Name, livestock.RoleKeeper, cost, cphs)
		if err != nil {
			return store.Seed{}, err
		}
		s.Users = append(s.Users, u)
		if err := k.addFlocks(&s); err != nil {
			return store.Seed{}, err
		}
		if err := k.addHerd(&s); err != nil {
			return store.Seed{}, err
		}
	}
	u, err := user(Inspector, livestock.RoleInspector, cost, nil)
	if err != nil {
		return store.Seed{}, err
	}
	s.Users = append(s.Users, u)
	return s, nil
}

func user(name string, role livestock.Role, cost int, holdings []livestock.CPH) (store.SeedUser, error) {
	hash, err := bcrypt.GenerateFromPassword([]byte(name), cost)
	if err != nil {
		return store.SeedUser{}, fmt.Errorf("hash password of %s: %w", name, err)
	}
	return store.SeedUser{Name: name, Role: role, PasswordHash: hash, Holdings: holdings}, nil
}
