package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store/sqlite"
	"github.com/drover-registry/drover/internal/tracing"
)

// TestGenerate: the synthetic registry has the movements asked for, in id
// order, each between two holdings in the five years; every tagged
// animal's movements join end to end; most movements touch a market.
func TestGenerate(t *testing.T) {
	s := shape{Holdings: 5000, Movements: 20000}
	var n, viaMarket int
	at := map[string]int{} // a tagged animal's holding after its last standing movement
	generate(s, func(r row) {
		n++
		if r.ID != int64(n) || r.Source == r.Destination || r.Transfer.Before(firstDay) || r.Transfer.After(lastDay) {
			t.Fatalf("movement %d: %+v", n, r)
		}
		if s.isMarket(r.Source) || s.isMarket(r.Destination) {
			viaMarket++
		}
		for _, d := range r.Devices {
			if h, ok := at[d.Tag]; ok && h != d.Prior {
				t.Fatalf("movement %d: %s leaves %d, but was on %d", r.ID, d.Tag, d.Prior, h)
			}
			if r.State == "Completed" || r.State == "Accepted" {
				at[d.Tag] = r.Destination
			}
		}
	}, func(a animal) {
		if h, ok := at[a.Tag]; ok && h != a.Holding {
			t.Fatalf("%s is on %d, but its movements left it on %d", a.Tag, a.Holding, h)
		}
		if a.Since.Before(a.Born) || a.Since.After(lastDay.Add(24*time.Hour)) {
			t.Fatalf("%s: since %s, born %s", a.Tag, a.Since, a.Born)
		}
	})
	if n != s.Movements {
		t.Fatalf("%d movements, want %d", n, s.Movements)
	}
	if share := float64(viaMarket) / float64(n); share < 0.5 {
		t.Errorf("%.0f%% of movements touch a market, want most", 100*share)
	}
}

// TestNaiveAgreesWithTrace: on a small registry the naive baseline reaches
// the same holdings as the trace it is measured beside, from every market
// over several windows, so the two figures compare the same work.
func TestNaiveAgreesWithTrace(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trace.db")
	s := shape{Holdings: 4000, Movements: 60000}
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := insertSQLite(ctx, path, s); err != nil {
		t.Fatal(err)
	}
	if st, err = sqlite.Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := tracing.New(st, time.Now)
	for w := range 4 {
		to := firstDay.AddDate(1, 3*w, 0)
		from := to.AddDate(0, 0, -29)
		for m := range s.markets() {
			res, err := svc.Trace(ctx, tracing.Query{Holding: livestock.MustCPH(cph(m)), From: from, To: to, Direction: tracing.Both, Hops: 3})
			if err != nil {
				t.Fatal(err)
			}
			reached, _, err := naiveTrace(ctx, db, cph(m), from, to, 3)
			if err != nil {
				t.Fatal(err)
			}
			if reached != len(res.Holdings) {
				t.Errorf("market %s, %s to %s: naive reached %d, trace %d", cph(m), from.Format(time.DateOnly), to.Format(time.DateOnly),
					reached, len(res.Holdings))
			}
		}
	}
}
