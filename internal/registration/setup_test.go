package registration

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to count rows on PostgreSQL
	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// start is the fixed clock's first reading: noon in London (BST), so the
// UK date and the UTC date agree unless a test moves the clock.
var start = time.Date(2026, 6, 10, 11, 0, 0, 0, time.UTC)

// Sandbox places and animals (package sandbox): keeper1's producer holding
// 01/100/0257 keeps herd 442501, whose cows 1–5 are registered and whose
// numbers 101–150 are issued for calves; keeper2 has 01/100/0264 and 442502.
const (
	farm1, farm2 = "01/100/0257", "01/100/0264"
	otherFarm1   = "01/100/0253" // keeper1's abattoir: known, not the herd's
	unknownCPH   = "01/999/9999"
	today        = "2026-06-10"
)

// tag is the printed cattle tag n of herd mark.
func tag(t *testing.T, mark string, n int) string {
	t.Helper()
	c, err := livestock.NewCattleTag(mark, n)
	if err != nil {
		t.Fatal(err)
	}
	return c.String()
}

// clock is a fixed clock that a test moves by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

// bundle is one test's service over a seeded store, with a second
// connection to the same database to count rows behind the store's back.
type bundle struct {
	t      *testing.T
	ctx    context.Context
	store  store.Store
	svc    *Service
	runner *jobs.Runner
	clock  *clock
	db     *sql.DB

	generated atomic.Int64 // numbers the correlation ids the service would make
}

// each runs body against a seeded SQLite store and PostgreSQL store, as
// storetest.Each does (the same files, schemas and skip rules), keeping
// the database's address so that the test can count rows: a refused
// registration must leave no row anywhere, which the store's interface
// alone cannot show.
func each(t *testing.T, body func(t *testing.T, b *bundle)) {
	t.Helper()
	for _, d := range []struct {
		name string
		open func(t *testing.T) (store.Store, *sql.DB)
	}{{"sqlite", openSQLite}, {"postgres", openPostgres}} {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			s, db := d.open(t)
			body(t, setup(t, s, db))
		})
	}
}

func openSQLite(t *testing.T) (store.Store, *sql.DB) {
	path := storetest.SQLitePath(t)
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, rawDB(t, "sqlite", path+"?_busy_timeout=10000")
}

func openPostgres(t *testing.T) (store.Store, *sql.DB) {
	u := storetest.PostgresURL(t)
	s, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatalf("postgres.Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, rawDB(t, "pgx", u)
}

func rawDB(t *testing.T, driver, dsn string) *sql.DB {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// setup seeds the sandbox and makes the service, with a runner that the
// test drives one job at a time (RunOne), never in the background.
func setup(t *testing.T, s store.Store, db *sql.DB) *bundle {
	ctx := context.Background()
	if _, err := sandbox.Ensure(ctx, s, bcrypt.MinCost); err != nil {
		t.Fatal(err)
	}
	lists, err := standing.Load("")
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{now: start}
	svc, err := New(s, lists, c.Now, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// The runner keeps the real clock: the store dates a job it enqueues
	// by its own clock, and a runner living in June would find none due.
	r := jobs.New(s, jobs.Options{})
	svc.Register(r)
	return &bundle{t: t, ctx: ctx, store: s, svc: svc, runner: r, clock: c, db: db}
}

// user reads a sandbox user.
func (b *bundle) user(name string) livestock.User {
	b.t.Helper()
	u, err := b.store.UserByName(b.ctx, name)
	if err != nil {
		b.t.Fatal(err)
	}
	return u
}
