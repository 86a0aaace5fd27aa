package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
)

// TestTraceExercise: drover trace answers both questions for a given
// animal and for one picked at random, saying how long each took.
func TestTraceExercise(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "drover.db")
	st, err := openStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.Ensure(ctx, st, bcrypt.MinCost); err != nil {
		t.Fatal(err)
	}
	k1, k2 := sandbox.Keepers[0], sandbox.Keepers[1]
	cow, src, dst := k1.Cow().String(), k1.ProducerCPH(), k2.ProducerCPH()
	from := src.String()
	day := time.Date(2025, 3, 5, 0, 0, 0, 0, time.UTC)
	err = st.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
		id, err := tx.InsertRequest(ctx, store.Request{Type: store.RequestTransfer, Status: store.StatusSuccess, UserName: "keeper1",
			RequestDate: day, UpdatedDate: day, CorrelationID: "c", Holdings: []livestock.CPH{src, dst}, Content: []byte(`{}`)})
		if err != nil {
			return err
		}
		if err := tx.InsertMovement(ctx, store.Movement{ID: id, UserName: "keeper1", Species: livestock.SpeciesCattle, Source: src, Destination: dst,
			TransferDate: day, ArrivalDate: day, State: store.MovementCompleted, AnimalCount: 1, ReportedBy: store.SideDeparture,
			Devices: []store.MovementDevice{{Identifier: k1.Cow().Tag(), PriorCPH: src, PriorOnSince: sandbox.Since, Outcome: "accepted"}}}); err != nil {
			return err
		}
		return tx.MoveAnimals(ctx, []string{cow}, dst, day)
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	none := func(string) string { return "" }
	for _, args := range [][]string{{"--animal", cow}, nil} {
		var out bytes.Buffer
		if err := run(ctx, append([]string{"trace", "--database", db, "--date", "2025-03-30"}, args...), none, &out, &out); err != nil {
			t.Fatalf("drover trace %v: %v\n%s", args, err, out.String())
		}
		got := out.String()
		for _, want := range []string{"animal " + cow, "1. its locations over the 30 days: 2 holding(s), in ", from + "  from 2024-01-01  to 2025-03-05",
			"2. the current location of every animal that resided with it: ", "now on " + from} {
			if !strings.Contains(got, want) {
				t.Errorf("drover trace %v: no %q in\n%s", args, want, got)
			}
		}
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"trace", "--database", db, "--days", "0"}, none, &out, &out); err == nil || !strings.Contains(err.Error(), "--days") {
		t.Errorf("--days 0: %v", err)
	}
}

// TestTraceChangesNothing: drover trace reads a database as it is. Named
// a file that does not exist, it says so and makes none; a database with a
// migration pending is refused, not migrated under running servers.
func TestTraceChangesNothing(t *testing.T) {
	ctx := context.Background()
	none := func(string) string { return "" }
	dir := t.TempDir()
	missing := filepath.Join(dir, "drover.db")
	var out bytes.Buffer
	if err := run(ctx, []string{"trace", "--database", missing, "--animal", "UK0130181 00001"}, none, &out, &out); err == nil ||
		!strings.Contains(err.Error(), "no database at") {
		t.Errorf("drover trace of a missing file = %v; want it named missing", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("drover trace made %s (%v)", missing, err)
	}

	st, err := openStore(ctx, missing)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", missing)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const last = "(SELECT max(version_id) FROM goose_db_version)"
	var before int
	if err := db.QueryRow("SELECT " + last).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DELETE FROM goose_db_version WHERE version_id = " + last); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"trace", "--database", missing, "--animal", "UK0130181 00001"}, none, &out, &out); err == nil ||
		!strings.Contains(err.Error(), "drover migrate") {
		t.Errorf("drover trace with a migration pending = %v; want a refusal naming drover migrate", err)
	}
	var after int
	if err := db.QueryRow("SELECT " + last).Scan(&after); err != nil || after >= before {
		t.Errorf("schema version after drover trace = %d (%v); want it left below %d", after, err, before)
	}
}
