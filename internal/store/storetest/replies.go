package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

func testReplies(t *testing.T, s store.Store) {
	c := ctx(t)
	first := store.Reply{UserName: "keeper1", CorrelationID: "c-1", RequestHash: "ab12", Status: 202,
		Body: []byte(`{"requestId": 1}`), CreatedAt: base, RequestID: "1"}
	second := first
	second.CorrelationID, second.Status, second.RequestID = "c-2", 400, "" // a refusal names no request
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		if err := tx.SaveReply(c, first); err != nil {
			return err
		}
		again := first
		again.Status, again.Body = 500, []byte(`{}`)
		wantKind(t, "SaveReply again", tx.SaveReply(c, again), livestock.KindConflict)
		// The transaction is still usable after the conflict.
		return tx.SaveReply(c, second)
	})
	other := first
	other.UserName = "keeper2" // another user's correlation ids are their own
	inTx(t, s, func(c context.Context, tx store.Tx) error { return tx.SaveReply(c, other) })
	for _, want := range []store.Reply{first, second, other} {
		want.CreatedAt = stored(want.CreatedAt)
		got, err := s.Reply(c, want.UserName, want.CorrelationID)
		if diff := cmp.Diff(want, got, cmpOpts); err != nil || diff != "" {
			t.Errorf("Reply(%s, %s): %v (-want +got):\n%s", want.UserName, want.CorrelationID, err, diff)
		}
	}
	_, err := s.Reply(c, "keeper3", "c-1")
	wantKind(t, "Reply of another user", err, livestock.KindNotFound)
}

// testAnimals reads the fixture's registry and moves an animal.
func testAnimals(t *testing.T, s store.Store) {
	c := ctx(t)
	sd := fixture()
	_, err := s.Seed(c, sd)
	must(t, "Seed", err)
	if a, err := s.Animal(c, "UK0100001 00001"); err != nil || !cmp.Equal(sd.Animals[0], a, cmpOpts) {
		t.Errorf("Animal = %+v, %v; want %+v", a, err, sd.Animals[0])
	}
	if f, err := s.Flock(c, livestock.MustFlockMark("100002")); err != nil || !cmp.Equal(sd.Flocks[1], f, cmpOpts) {
		t.Errorf("Flock = %+v, %v; want %+v", f, err, sd.Flocks[1])
	}
	if h, err := s.HoldingByMHS(c, mustMHS("0036")); err != nil || !cmp.Equal(sd.Holdings[2], h, cmpOpts) {
		t.Errorf("HoldingByMHS = %+v, %v; want %+v", h, err, sd.Holdings[2])
	}
	moved := sd.Animals[0]
	moved.CPH, moved.OnSince = farmB, ymd(2026, 5, 1)
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		if err := tx.MoveAnimals(c, []string{moved.Identifier.String()}, farmB, time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			return err
		}
		// The transaction reads its own writes and the registry.
		if got, err := tx.Animals(c, []string{moved.Identifier.String()}); err != nil || !cmp.Equal(moved, got[moved.Identifier.String()], cmpOpts) {
			t.Errorf("tx.Animals after MoveAnimals = %+v, %v; want %+v", got, err, moved)
		}
		if h, err := tx.Holding(c, farmB); err != nil || h.CPH != farmB {
			t.Errorf("tx.Holding = %+v, %v", h, err)
		}
		if f, err := tx.Flock(c, livestock.MustFlockMark("100001")); err != nil || f.CPH != farmA {
			t.Errorf("tx.Flock = %+v, %v", f, err)
		}
		if h, err := tx.HoldingByMHS(c, mustMHS("0036")); err != nil || h.CPH != abattoir {
			t.Errorf("tx.HoldingByMHS = %+v, %v", h, err)
		}
		return nil
	})
	if a, err := s.Animal(c, moved.Identifier.String()); err != nil || !cmp.Equal(moved, a, cmpOpts) {
		t.Errorf("Animal after MoveAnimals = %+v, %v; want %+v", a, err, moved)
	}
	err = s.InTx(c, func(c context.Context, tx store.Tx) error {
		return tx.MoveAnimals(c, []string{"UK0100001 00002"}, farmB, ymd(2026, 5, 1)) // a tag no animal wears
	})
	wantKind(t, "MoveAnimals of a tag no animal wears", err, livestock.KindNotFound)
}

// testLockRequest holds a request in one transaction while another locks
// it: the second waits until the first commits, and then sees its write.
// (On SQLite the second transaction waits for the one writer instead.)
func testLockRequest(t *testing.T, s store.Store) {
	c := ctx(t)
	id := addRequests(t, s, transfer("keeper1"))[0]
	locked, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.InTx(c, func(c context.Context, tx store.Tx) error {
			r, err := tx.LockRequest(c, id)
			if err != nil {
				return err
			}
			close(locked)
			<-release
			r.Status, r.UpdatedDate = store.StatusSuccess, base
			return tx.UpdateRequest(c, r)
		})
	}()
	<-locked
	seen := make(chan store.RequestStatus, 1)
	second := make(chan error, 1)
	go func() {
		second <- s.InTx(c, func(c context.Context, tx store.Tx) error {
			r, err := tx.LockRequest(c, id)
			seen <- r.Status
			return err
		})
	}()
	select {
	case st := <-seen:
		t.Errorf("the second LockRequest returned (status %s) while the first transaction held the row", st)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	must(t, "first transaction", <-first)
	must(t, "second transaction", <-second)
	select {
	case st := <-seen:
		if st != store.StatusSuccess {
			t.Errorf("the second LockRequest saw status %s, want the first transaction's Success", st)
		}
	default:
	}
}
