package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestListPlannedEachTime looks animals up by a list of identifiers
// (Tx.Animals) while the table is tiny, often enough for PostgreSQL to
// settle on a generic plan of the prepared statement, then grows the table
// a hundredfold and looks up again: every later look-up must use the
// primary key, not the sequential scan the generic plan made for 211 rows
// (Dialect.PlanEachTime). The scans are counted in pg_stat_user_tables,
// which a backend writes when it exits: the store is closed first.
func TestListPlannedEachTime(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	s := open(t, u)
	ctx := t.Context()
	farm := livestock.MustCPH("01/100/0001")
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	seed := func(from, n int) {
		sd := store.Seed{Holdings: []livestock.Holding{{CPH: farm, Type: livestock.HoldingProducer}}}
		for i := from; i < from+n; i++ {
			sd.Animals = append(sd.Animals, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesSheep, fmt.Sprintf("UK0100001 %05d", i)), Species: livestock.SpeciesSheep,
				Sex: livestock.SexFemale, BirthDate: day, CPH: farm, OnSince: day, State: livestock.StateRegistered})
		}
		if _, err := s.Seed(ctx, sd); err != nil {
			t.Fatal(err)
		}
	}
	lookUp := func(times, among int) {
		for i := range times {
			err := s.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
				a, b := fmt.Sprintf("UK0100001 %05d", (7*i)%among), fmt.Sprintf("UK0100001 %05d", (13*i+1)%among)
				found, err := tx.Animals(ctx, []string{a, b})
				if err == nil && len(found) != 2 {
					err = fmt.Errorf("Animals(%s, %s) found %d", a, b, len(found))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	const before, after = 10, 20
	seed(0, 211)
	lookUp(before, 211)
	seed(211, 21100)
	lookUp(after, 21311)
	c := tableStats(t, s, u, `SELECT coalesce(seq_scan, 0), coalesce(idx_scan, 0), coalesce(seq_tup_read, 0)
		FROM pg_stat_user_tables WHERE relname = 'animals' AND schemaname = current_schema()`,
		func(c []int64) bool { return c[0]+c[1] >= before+after })
	last := struct{ seq, idx, seqRows int64 }{c[0], c[1], c[2]}
	// A sequential scan of the grown table reads its 21,311 rows; those of
	// the tiny one (and the seed's) read 211 at most.
	if last.seq+last.idx < before+after || last.seqRows >= 21311 {
		t.Errorf("%d look-ups on 211 animals, then %d on 21,311: %d sequential scans reading %d rows, %d index scans; "+
			"want no sequential scan of the grown table", before, after, last.seq, last.seqRows, last.idx)
	}
}
