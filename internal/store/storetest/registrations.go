package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// fullRegistration sets every field of a registration request.
func fullRegistration(id string) store.Registration {
	return store.Registration{
		ID: id, UserName: "keeper1", Async: true, Status: store.RegistrationFailed,
		RequestDate: base, UpdatedDate: base.Add(time.Minute), NextPollAt: base.Add(5 * time.Second),
		CorrelationID: "c-" + id, Body: []byte(`{ "identifier": "UK0100001 00002" }`), Identifier: "UK0100001 00002",
		Errors: []livestock.FieldError{
			{Code: livestock.CodeNotIssued, Message: "not issued", Source: "/identifier", Value: "UK0100001 00002"},
			{Code: livestock.CodeDateOrder, Message: "dates out of order"},
		},
		Warnings: []livestock.FieldError{{Code: livestock.CodeLateBirth, Message: "late", Source: "/birth/date"}},
	}
}

// storedRegistration is r as a store returns it.
func storedRegistration(r store.Registration) store.Registration {
	r.RequestDate, r.UpdatedDate, r.NextPollAt = stored(r.RequestDate), stored(r.UpdatedDate), stored(r.NextPollAt)
	return r
}

// addRegistrations inserts rs in one transaction.
func addRegistrations(t *testing.T, s store.Store, rs ...store.Registration) {
	t.Helper()
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for _, r := range rs {
			if err := tx.InsertRegistration(c, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// wantRegistration fails the test unless registration id reads back as want.
func wantRegistration(t *testing.T, s store.Store, what string, want store.Registration) {
	t.Helper()
	got, err := s.Registration(ctx(t), want.ID)
	must(t, what, err)
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

func testRegistrationRoundTrip(t *testing.T, s store.Store) {
	full := fullRegistration("0b7e6c1e-0000-4000-8000-000000000001")
	bare := store.Registration{ID: "0b7e6c1e-0000-4000-8000-000000000002", UserName: "keeper2",
		Status: store.RegistrationPending, RequestDate: base, UpdatedDate: base, NextPollAt: base}
	addRegistrations(t, s, full, bare)
	want := []store.Registration{storedRegistration(full), storedRegistration(bare)}
	for _, w := range want {
		wantRegistration(t, s, "Registration", w)
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for _, w := range want {
			if r, err := tx.LockRegistration(c, w.ID); err != nil || !cmp.Equal(w, r) {
				t.Errorf("tx.LockRegistration(%q) = %+v, %v; want %+v", w.ID, r, err, w)
			}
		}
		return nil
	})
}

// testRegistrationConflict checks that an id is unique, and that the
// transaction stays usable after the conflict.
func testRegistrationConflict(t *testing.T, s store.Store) {
	first := fullRegistration("r-1")
	addRegistrations(t, s, first)
	again, other := fullRegistration("r-1"), fullRegistration("r-2")
	again.UserName, again.Async = "keeper2", false
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		wantKind(t, "InsertRegistration of an id that exists", tx.InsertRegistration(c, again), livestock.KindConflict)
		return tx.InsertRegistration(c, other)
	})
	wantRegistration(t, s, "the first registration", storedRegistration(first))
	wantRegistration(t, s, "the registration after the conflict", storedRegistration(other))
}

// testUpdateRegistration checks that UpdateRegistration writes only what
// deciding a registration changes.
func testUpdateRegistration(t *testing.T, s store.Store) {
	c := ctx(t)
	r := fullRegistration("r-1")
	addRegistrations(t, s, r)
	want := storedRegistration(r)
	want.Status, want.UpdatedDate, want.Identifier = store.RegistrationCompleted, stored(base.Add(time.Hour)), "UK0100001 00009"
	want.Errors = nil
	want.Warnings = []livestock.FieldError{{Code: livestock.CodeLateBirth, Message: "still late"}}
	changed := want
	changed.UserName, changed.Async, changed.RequestDate = "keeper2", false, base.Add(-time.Hour)
	changed.NextPollAt, changed.CorrelationID, changed.Body = base.Add(time.Hour), "other", []byte(`{}`)
	inTx(t, s, func(c context.Context, tx store.Tx) error { return tx.UpdateRegistration(c, changed) })
	wantRegistration(t, s, "Registration after UpdateRegistration", want)

	// An identifier can be taken away again.
	want.Identifier = ""
	inTx(t, s, func(c context.Context, tx store.Tx) error { return tx.UpdateRegistration(c, want) })
	wantRegistration(t, s, "Registration after UpdateRegistration without identifier", want)

	err := s.InTx(c, func(c context.Context, tx store.Tx) error {
		return tx.UpdateRegistration(c, store.Registration{ID: "none", UpdatedDate: base})
	})
	wantKind(t, "UpdateRegistration of no registration", err, livestock.KindNotFound)
}

// testRegistrationNotFound asks an empty store for a registration.
func testRegistrationNotFound(t *testing.T, s store.Store) {
	c := ctx(t)
	_, err := s.Registration(c, "none")
	wantKind(t, "Registration", err, livestock.KindNotFound)
	_, _, err = s.TakePoll(c, "none", base, base.Add(time.Second))
	wantKind(t, "TakePoll", err, livestock.KindNotFound)
	err = s.InTx(c, func(c context.Context, tx store.Tx) error {
		_, err := tx.LockRegistration(c, "none")
		return err
	})
	wantKind(t, "tx.LockRegistration", err, livestock.KindNotFound)
}

// testTakePoll checks that a poll is allowed at or after NextPollAt, and
// moves it on, and that one too soon changes nothing.
func testTakePoll(t *testing.T, s store.Store) {
	c := ctx(t)
	r := fullRegistration("r-1")
	addRegistrations(t, s, r)
	want := storedRegistration(r)
	due := want.NextPollAt

	got, ok, err := s.TakePoll(c, r.ID, due.Add(-time.Microsecond), due.Add(time.Hour))
	if err != nil || ok || !cmp.Equal(want, got) {
		t.Errorf("TakePoll a microsecond early = %+v, %v, %v; want %+v, false, nil", got, ok, err, want)
	}
	wantRegistration(t, s, "Registration after a poll too soon", want)

	next := due.Add(5 * time.Second)
	want.NextPollAt = next
	got, ok, err = s.TakePoll(c, r.ID, due.In(time.FixedZone("Y", 3600)), next.In(time.FixedZone("Z", -3600)))
	if err != nil || !ok || !cmp.Equal(want, got) {
		t.Errorf("TakePoll at NextPollAt = %+v, %v, %v; want %+v, true, nil", got, ok, err, want)
	}
	wantRegistration(t, s, "Registration after a poll allowed", want)

	// The same instant again is too soon now; a later one is allowed.
	if got, ok, err := s.TakePoll(c, r.ID, due, due.Add(time.Hour)); err != nil || ok || !got.NextPollAt.Equal(next) {
		t.Errorf("TakePoll again at the same instant = %v, %v, %v; want NextPollAt %v, false, nil",
			got.NextPollAt, ok, err, next)
	}
	later := next.Add(time.Minute)
	if got, ok, err := s.TakePoll(c, r.ID, later, later.Add(time.Second)); err != nil || !ok ||
		!got.NextPollAt.Equal(stored(later.Add(time.Second))) {
		t.Errorf("TakePoll after NextPollAt = %v, %v, %v; want NextPollAt %v, true, nil",
			got.NextPollAt, ok, err, later.Add(time.Second))
	}
}

// testTakePollRace polls one registration from 8 goroutines at the same
// instant: exactly one poll is allowed.
func testTakePollRace(t *testing.T, s store.Store) {
	c := ctx(t)
	r := fullRegistration("r-1")
	addRegistrations(t, s, r)
	now, next := stored(r.NextPollAt), stored(r.NextPollAt).Add(5*time.Second)
	const n = 8
	var wg sync.WaitGroup
	oks := make([]bool, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			var got store.Registration
			got, oks[i], errs[i] = s.TakePoll(c, r.ID, now, next)
			if errs[i] == nil && !got.NextPollAt.Equal(next) {
				t.Errorf("TakePoll %d: NextPollAt %v; want %v", i, got.NextPollAt, next)
			}
		})
	}
	wg.Wait()
	allowed := 0
	for i := range n {
		must(t, "TakePoll", errs[i])
		if oks[i] {
			allowed++
		}
	}
	if allowed != 1 {
		t.Errorf("%d of %d polls at one instant allowed; want exactly 1", allowed, n)
	}
}
