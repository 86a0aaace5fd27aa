package main

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// The registry built: movements spread over holdings 40/000/0000 on, dated
// over the two years from firstDay in id order (with a few days of jitter),
// every benchShare-th of them to or from one of the benchHoldings holdings
// that the keeper benchUser acts for: half sent by benchUser, so that a
// month of that keeper's own requests is about N/benchShare/48 of them,
// and half by the other ends, which the keeper's listing must pass over
// (a keeper reads only their own requests). Every request is a Success
// with its movement (Completed, no devices: the listing does not read them).
const (
	benchUser     = "bench" // password "bench"
	benchHoldings = 7
	benchShare    = 10
	days          = 731 // 2024-01-01 to 2025-12-31
)

var firstDay = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// cph is the CPH of holding i.
func cph(i int) string { return fmt.Sprintf("40/%03d/%04d", i/10000, i%10000) }

// movement is one built transfer request and its movement.
type movement struct {
	ID                    int64
	Date                  time.Time // the transfer date, at 00:00Z
	Requested             time.Time
	User, Species         string
	Source, Destination   string
	Count                 int
	Content               []byte
	CorrelationID, DocRef string
}

// holdings is what the request's row keeps of its holdings: their CPHs in
// order, space-separated (migration 00007).
func (m movement) holdings() string {
	if m.Destination < m.Source {
		return m.Destination + " " + m.Source
	}
	return m.Source + " " + m.Destination
}

// movementOf builds movement id (1-based) of n over h holdings.
func movementOf(id int64, n, h int) movement {
	r := splitmix(uint64(id))
	day := int((id-1)*days/int64(n)) + int(r%5) - 2
	day = min(max(day, 0), days-1)
	src := int(r>>8) % h
	dst := (src + 1 + int(r>>32)%(h-1)) % h // any other holding
	user := ""
	if id%benchShare == 0 {
		b, other := int(id/benchShare)%benchHoldings, benchHoldings+int(r>>8)%(h-benchHoldings)
		if id/benchShare%2 == 0 {
			src, dst, user = b, other, benchUser
		} else {
			src, dst = other, b
		}
	}
	if user == "" {
		user = fmt.Sprintf("keeper%05d", src)
	}
	m := movement{ID: id, Date: firstDay.AddDate(0, 0, day), User: user,
		Species: [...]string{"Sheep", "Sheep", "Goats", "Deer"}[r>>40&3], Source: cph(src), Destination: cph(dst),
		Count: 1 + int(r>>44)%60, DocRef: movements.DocumentRef(id),
		CorrelationID: fmt.Sprintf("%08x-0000-4000-8000-%012x", id>>48, id)}
	m.Requested = m.Date.Add(time.Duration(8+(r>>50)%10) * time.Hour)
	m.Content = fmt.Appendf(nil, `{"transferDate":"%s","species":"%s","userHolding":"%s","sourceHolding":"%s",`+
		`"destinationHolding":"%s","animalCount":%d,"movementGroups":[{"batches":[{"batchNumber":"UK1%05d",`+
		`"animalTotal":%d}],"devices":[],"devicesWithDetail":[]}]}`, m.Date.Format(time.DateOnly), m.Species,
		m.Source, m.Source, m.Destination, m.Count, src%100000, m.Count)
	return m
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// build writes the registry and reports how long it took. The store is
// opened with the real Open, so the migrations are Drover's own; holdings
// and users go through its Seed, the millions of rows through bulk SQL.
func build(ctx context.Context, t *database.Target, o options) (time.Duration, error) {
	start := time.Now()
	var st store.Store
	var err error
	if t.Postgres {
		st, err = postgres.Open(ctx, t.DSN)
	} else {
		st, err = sqlite.Open(ctx, t.DSN)
	}
	if err != nil {
		return 0, err
	}
	err = seed(ctx, st, o.Holdings)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if t.Postgres {
		err = copyPostgres(ctx, t.DSN, o.Movements, o.Holdings)
	} else {
		err = insertSQLite(ctx, t.DSN, o.Movements, o.Holdings)
	}
	return time.Since(start), err
}

// seed adds the holdings, the bench keeper and the sandbox's users.
func seed(ctx context.Context, st sandbox.Store, h int) error {
	hash, err := bcrypt.GenerateFromPassword([]byte(benchUser), bcrypt.MinCost)
	if err != nil {
		return err
	}
	var s store.Seed
	for i := range h {
		s.Holdings = append(s.Holdings, livestock.Holding{CPH: livestock.MustCPH(cph(i)),
			Type: livestock.HoldingTypes[i%len(livestock.HoldingTypes)]})
	}
	u := store.SeedUser{Name: benchUser, Role: livestock.RoleKeeper, PasswordHash: hash}
	for i := range benchHoldings {
		u.Holdings = append(u.Holdings, s.Holdings[i].CPH)
	}
	s.Users = []store.SeedUser{u}
	if _, err := st.Seed(ctx, s); err != nil {
		return err
	}
	_, err = sandbox.Ensure(ctx, st, bcrypt.MinCost)
	return err
}
