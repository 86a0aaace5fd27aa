package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// testAnimalsTogether looks up and moves 601 animals at once (more than
// one statement's parameters on SQLite), with a repeated identifier and
// one no animal wears; and refuses to move a list that holds such a one.
func testAnimalsTogether(t *testing.T, s store.Store) {
	c := ctx(t)
	sd := largeSeed(1200) // 600 more animals: UK0100001 00100, 00102, …
	_, err := s.Seed(c, sd)
	must(t, "Seed", err)
	var ids []string
	want := map[string]store.Animal{}
	day := func(t time.Time) time.Time { return ymd(t.Date()) } // dates are stored as the calendar day
	for _, a := range sd.Animals {
		ids = append(ids, a.Identifier.String())
		a.BirthDate, a.OnSince = day(a.BirthDate), day(a.OnSince)
		want[a.Identifier.String()] = a
	}
	ids = append(ids, ids[0], "UK0100001 00101") // a repeat, and a tag issued but worn by no animal
	on := ymd(2026, 6, 1)
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		got, err := tx.Animals(c, ids)
		if err != nil {
			return err
		}
		if !cmp.Equal(want, got, cmpOpts) {
			t.Errorf("Animals of %d identifiers: %d found; diff (-want +got):\n%s", len(ids), len(got), cmp.Diff(want, got, cmpOpts))
		}
		if err := tx.MoveAnimals(c, ids[:len(ids)-1], farmB, on); err != nil {
			return fmt.Errorf("MoveAnimals: %w", err)
		}
		moved, err := tx.Animals(c, ids)
		if err != nil {
			return err
		}
		for id, a := range moved {
			if a.CPH != farmB || !a.OnSince.Equal(on) {
				t.Errorf("%s after MoveAnimals: on %s since %v; want %s since %v", id, a.CPH, a.OnSince, farmB, on)
			}
		}
		if len(moved) != len(want) {
			t.Errorf("Animals after MoveAnimals found %d; want %d", len(moved), len(want))
		}
		return nil
	})
	if got, err := s.Animal(c, ids[len(ids)-3]); err != nil || got.CPH != farmB {
		t.Errorf("Animal after the move committed = %+v, %v; want it on %s", got, err, farmB)
	}
	err = s.InTx(c, func(c context.Context, tx store.Tx) error {
		return tx.MoveAnimals(c, []string{ids[0], "UK0100001 00101"}, farmA, on)
	})
	wantKind(t, "MoveAnimals of a list with a tag no animal wears", err, livestock.KindNotFound)
	if got, err := s.Animal(c, ids[0]); err != nil || got.CPH != farmB {
		t.Errorf("Animal after a refused MoveAnimals = %+v, %v; want it still on %s", got, err, farmB)
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		got, err := tx.Animals(c, nil)
		if err != nil || len(got) != 0 {
			t.Errorf("Animals(nil) = %v, %v; want none", got, err)
		}
		return tx.MoveAnimals(c, nil, farmA, time.Time{})
	})
}

// testAnimalsLocked: a transaction that has read an animal, to check a
// move against where it is, holds it until it ends; another that reads it
// meanwhile waits, and then sees where the first put it. On PostgreSQL two
// jobs of one sheep, on two committers, had both read it on the same
// holding and both moved it (the crash test found a sheep whose place no
// movement explained). SQLite has one writer, so its second transaction
// waits anyway.
func testAnimalsLocked(t *testing.T, s store.Store) {
	c := ctx(t)
	_, err := s.Seed(c, fixture())
	must(t, "Seed", err)
	const sheep = "UK0100001 00001" // on farm A
	var readOnce sync.Once
	read, release, first := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		first <- s.InTx(c, func(c context.Context, tx store.Tx) error {
			if _, err := tx.Animals(c, []string{sheep}); err != nil {
				return err
			}
			readOnce.Do(func() { close(read) })
			<-release
			return tx.MoveAnimals(c, []string{sheep}, farmB, ymd(2026, 6, 1))
		})
	}()
	select {
	case <-read:
	case err := <-first:
		t.Fatalf("the first transaction ended before it read: %v", err)
	}
	var mu sync.Mutex
	var seen store.Animal
	second := make(chan error, 1)
	go func() {
		second <- s.InTx(c, func(c context.Context, tx store.Tx) error {
			found, err := tx.Animals(c, []string{sheep})
			mu.Lock()
			seen = found[sheep]
			mu.Unlock()
			return err
		})
	}()
	// Time for the second to read, were it not held back: without the
	// lock it reads farm A now, and the test fails; with it, it passes
	// whatever the timing.
	time.Sleep(100 * time.Millisecond)
	close(release)
	must(t, "the first transaction", <-first)
	must(t, "the second transaction", <-second)
	mu.Lock()
	defer mu.Unlock()
	if seen.CPH != farmB {
		t.Errorf("the second transaction read the sheep on %s; want %s, where the first moved it", seen.CPH, farmB)
	}
}
