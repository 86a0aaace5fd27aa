package registration

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// TestSyncRegistered: a calf registered in sync mode is stored with its
// details, a Completed registration records it, and the 200 answer is
// kept for retries when the caller chose the correlation id (only then).
func TestSyncRegistered(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1 := b.user("keeper1")
		id, dam := tag(t, "442501", 101), tag(t, "442501", 1)
		before := b.rows()
		a := b.mustSubmit(k1, calf(id, dam, "2026-06-07"), false, "c-1", 200)

		want := Completed{Identifier: id, Links: Links{Self: "/animals/" + id}, Warnings: []Problem{}}
		var got Completed
		if err := json.Unmarshal(a.Body, &got); err != nil || a.RequestID == "" || a.Replayed {
			t.Fatalf("answer = %+v (%v)", a, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("200 body (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(rows{before.Registrations + 1, before.Animals + 1, before.Jobs, before.Replies + 1}, b.rows()); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}

		animal, err := b.store.Animal(b.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		born, day := time.Date(2026, 6, 7, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC)
		wantAnimal := store.Animal{Identifier: livestock.MustTag(livestock.SpeciesCattle, id), Species: livestock.SpeciesCattle, Sex: livestock.SexFemale, BirthDate: born,
			CPH: livestock.MustCPH(farm1), OnSince: born, State: livestock.StateRegistered, ProductionType: "dairy", Breed: "HOL",
			BirthSite: farm1, BirthDam: dam, IdentificationDate: born, RegistrationDate: day, ReceivedDate: start,
			Category: livestock.CategoryBirth, RegisteredBy: "keeper1"}
		if diff := cmp.Diff(wantAnimal, animal, cmpopts.IgnoreFields(store.Animal{}, "Record"), cmpopts.EquateComparable(livestock.CPH{})); diff != "" {
			t.Errorf("stored animal (-want +got):\n%s", diff)
		}

		r, err := b.store.Registration(b.ctx, a.RequestID)
		if err != nil {
			t.Fatal(err)
		}
		wantReg := store.Registration{ID: a.RequestID, UserName: "keeper1", Status: store.RegistrationCompleted,
			RequestDate: start, UpdatedDate: start, NextPollAt: start.Add(5 * time.Second), CorrelationID: "c-1", Identifier: id}
		if diff := cmp.Diff(wantReg, r, cmpopts.IgnoreFields(store.Registration{}, "Body"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("registration (-want +got):\n%s", diff)
		}

		reply, err := b.store.Reply(b.ctx, "keeper1", "c-1")
		if err != nil || reply.Status != 200 || string(reply.Body) != string(a.Body) {
			t.Errorf("kept reply = %d %s, %v; want the 200 answer", reply.Status, reply.Body, err)
		}

		// Without a correlation id of the caller's, nothing is kept for replay.
		before = b.rows()
		b.mustSubmit(k1, calf(tag(t, "442501", 102), dam, "2026-06-07"), false, "", 200)
		if diff := cmp.Diff(rows{before.Registrations + 1, before.Animals + 1, before.Jobs, before.Replies}, b.rows()); diff != "" {
			t.Errorf("rows after an unreplayable registration (-want +got):\n%s", diff)
		}
	})
}

// TestLateBirth: a cattle birth registration received more than 27 days
// after the birth is registered, with W003, and the animal may not move;
// on the 27th day it is on time. Sync and async alike: an async one is
// aged on the day it was received, however late its job runs.
func TestLateBirth(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, dam := b.user("keeper1"), tag(t, "442501", 1)
		for i, tc := range []struct {
			name  string
			born  string
			async bool
			late  bool
		}{
			{"sync, 27 days", "2026-05-14", false, false},
			{"sync, 28 days", "2026-05-13", false, true},
			{"async, 27 days", "2026-05-14", true, false},
			{"async, 40 days", "2026-05-01", true, true},
		} {
			id := tag(t, "442501", 130+i)
			a := b.mustSubmit(k1, calf(id, dam, tc.born), tc.async, "", okStatus(tc.async))
			if tc.async { // decided days later: the age counts to the request
				b.clock.Add(72 * time.Hour)
				b.runJob()
				b.clock.Add(-72 * time.Hour)
			}
			r, err := b.store.Registration(b.ctx, a.RequestID)
			if err != nil {
				t.Fatal(err)
			}
			var want []problem
			if tc.late {
				want = []problem{{livestock.CodeLateBirth, "/birth/date"}}
			}
			if diff := cmp.Diff(want, fieldProblems(r.Warnings)); r.Status != store.RegistrationCompleted || diff != "" {
				t.Errorf("%s: registration %s, warnings (-want +got):\n%s", tc.name, r.Status, diff)
			}
			if !tc.async {
				var c Completed
				_ = json.Unmarshal(a.Body, &c)
				if got := len(c.Warnings) == 1 && c.Warnings[0].Code == livestock.CodeLateBirth; got != tc.late {
					t.Errorf("%s: 200 body %s", tc.name, a.Body)
				}
			}
			animal, err := b.store.Animal(b.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if animal.MovementRestricted != tc.late || (animal.RestrictionReason != "") != tc.late {
				t.Errorf("%s: movementRestricted = %v (%q), want %v", tc.name, animal.MovementRestricted, animal.RestrictionReason, tc.late)
			}
		}
	})
}

// TestUKToday: "today" is the UK date. At 23:30 UTC in June it is already
// tomorrow in London, so a registration dated tomorrow (UTC) is not in
// the future; one dated the day after is.
func TestUKToday(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		b.clock.Add(12*time.Hour + 30*time.Minute) // 2026-06-10T23:30Z = 00:30 on the 11th in London
		k1, dam := b.user("keeper1"), tag(t, "442501", 1)
		b.mustSubmit(k1, calf(tag(t, "442501", 140), dam, "2026-06-07").set("registration.date", "2026-06-11"), false, "", 200)
		_, err := b.submit(k1, calf(tag(t, "442501", 141), dam, "2026-06-07").set("registration.date", "2026-06-12").bytes(t), false, "")
		if _, got := refusal(err); !cmp.Equal(got, []problem{{livestock.CodeDateOrder, "/registration/date"}}) {
			t.Errorf("registered on the 12th = %v", err)
		}
	})
}

func fieldProblems(fs []livestock.FieldError) []problem {
	var out []problem
	for _, f := range fs {
		out = append(out, problem{f.Code, f.Source})
	}
	return out
}
