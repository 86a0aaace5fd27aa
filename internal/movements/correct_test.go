package movements_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestCorrectCompleted: a transfer that needed no review can be corrected
// as the live service allows (its 4076 names the case where it cannot):
// the correction undoes the movement and applies again in one step, so
// an animal it drops goes back where it was, one it adds moves, and the
// date is the corrected one. A correction the rules refuse, or one whose
// animals have moved on since, changes nothing.
func TestCorrectCompleted(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		today := time.Now().UTC().Truncate(24 * time.Hour)
		source, dest, onward := livestock.MustCPH("01/100/0257"), livestock.MustCPH("01/100/0258"), livestock.MustCPH("01/100/0259")
		since := map[string]time.Time{ // sheep of keeper1's flock 130181 on the source, each since its day
			"UK0130181 30001": today.AddDate(0, 0, -300),
			"UK0130181 30002": today.AddDate(0, 0, -200),
			"UK0130181 30003": today.AddDate(0, 0, -250),
		}
		var seed store.Seed
		for id, on := range since {
			seed.Animals = append(seed.Animals, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesSheep, id), Species: livestock.SpeciesSheep,
				Sex: livestock.SexFemale, BirthDate: today.AddDate(-1, 0, 0), CPH: source, OnSince: on, State: livestock.StateRegistered})
		}
		svc, r, keeper1 := sandboxService(t, s, &seed)
		submit := func(typ store.RequestType, content string) store.Request {
			t.Helper()
			var id int64
			_, err := svc.Submit(ctx, typ, movements.Posted{User: keeper1, Body: []byte(`{"content": {` + content + `}}`),
				Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if ran, err := r.RunOne(ctx, []string{movements.JobKind}); !ran || err != nil {
				t.Fatalf("RunOne = %v, %v", ran, err)
			}
			req, err := s.Request(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return req
		}
		move := func(from, to livestock.CPH, on time.Time, tags ...string) string {
			devices := make([]string, len(tags))
			for i, tag := range tags {
				devices[i] = fmt.Sprintf(`{"tagNumber": %q}`, tag)
			}
			return fmt.Sprintf(`"transferDate": %q, "species": "Sheep", "userHolding": %q, "sourceHolding": %q, "destinationHolding": %q,
				"animalCount": %d, "movementGroups": [{"devices": [%s]}]`, on.Format(time.DateOnly), from, from, to, len(tags), strings.Join(devices, ", "))
		}
		correct := func(target int64, body string) string {
			return body + fmt.Sprintf(`, "requestToBeUndone_ID": %d`, target)
		}
		want := func(what string, where map[string]livestock.CPH, on map[string]time.Time) {
			t.Helper()
			for tag, cph := range where {
				a, err := s.Animal(ctx, tag)
				if err != nil || a.CPH != cph || !a.OnSince.Equal(on[tag]) {
					t.Errorf("%s: %s on %s since %s (%v); want %s since %s", what, tag, a.CPH, a.OnSince.Format(time.DateOnly), err,
						cph, on[tag].Format(time.DateOnly))
				}
			}
		}
		ok := func(what string, req store.Request) store.Request {
			t.Helper()
			if !req.Status.Applied() {
				t.Fatalf("%s: %s %+v", what, req.Status, req.Errors)
			}
			return req
		}

		first := ok("the transfer", submit(store.RequestTransfer, move(source, dest, today.AddDate(0, 0, -2), "UK0130181 30001", "UK0130181 30002")))
		moved := map[string]livestock.CPH{"UK0130181 30001": dest, "UK0130181 30002": dest, "UK0130181 30003": source}
		movedOn := map[string]time.Time{"UK0130181 30001": today.AddDate(0, 0, -2), "UK0130181 30002": today.AddDate(0, 0, -2), "UK0130181 30003": since["UK0130181 30003"]}
		want("after the transfer", moved, movedOn)

		// Refused by the rules (a tag the register does not hold): nothing is put back.
		if bad := submit(store.RequestCorrection, correct(first.ID, move(source, dest, today, "UK0130181 30001", "UK0130181 39999"))); bad.Status != store.StatusFail {
			t.Errorf("a correction naming an unknown tag: %s, want Fail", bad.Status)
		}
		want("after a refused correction", moved, movedOn)

		// 30002 dropped, 30003 added, a day later.
		fixed := ok("the correction", submit(store.RequestCorrection, correct(first.ID, move(source, dest, today.AddDate(0, 0, -1), "UK0130181 30001", "UK0130181 30003"))))
		fixedOn := map[string]time.Time{"UK0130181 30001": today.AddDate(0, 0, -1), "UK0130181 30002": since["UK0130181 30002"], "UK0130181 30003": today.AddDate(0, 0, -1)}
		want("after the correction", map[string]livestock.CPH{"UK0130181 30001": dest, "UK0130181 30002": source, "UK0130181 30003": dest}, fixedOn)
		if m, err := s.Movement(ctx, first.ID); err != nil || m.RequestID != fixed.ID || m.State != store.MovementCompleted ||
			!m.TransferDate.Equal(today.AddDate(0, 0, -1)) || len(m.Devices) != 2 {
			t.Errorf("the movement after the correction = %+v, %v", m, err)
		}
		if orig, _ := s.Request(ctx, first.ID); orig.UndoSupported || !fixed.UndoSupported {
			t.Errorf("undoSupported: the corrected transfer %v, the correction %v; want false, true", orig.UndoSupported, fixed.UndoSupported)
		}

		// 30003 moves on; the movement can no longer be undone, so neither corrected.
		onwards := ok("the onward move", submit(store.RequestTransfer, move(dest, onward, today, "UK0130181 30003")))
		blocked := submit(store.RequestCorrection, correct(fixed.ID, move(source, dest, today.AddDate(0, 0, -1), "UK0130181 30001")))
		if blocked.Status != store.StatusFail || len(blocked.Errors) != 1 || blocked.Errors[0].Code != livestock.CodeNotCorrectable ||
			!strings.Contains(blocked.Errors[0].Message, fmt.Sprint(onwards.ID)) {
			t.Errorf("correcting a movement whose animal moved on: %s %+v; want Fail with %s naming request %d", blocked.Status, blocked.Errors,
				livestock.CodeNotCorrectable, onwards.ID)
		}
		want("after the blocked correction", map[string]livestock.CPH{"UK0130181 30001": dest, "UK0130181 30002": source, "UK0130181 30003": onward},
			map[string]time.Time{"UK0130181 30001": today.AddDate(0, 0, -1), "UK0130181 30002": since["UK0130181 30002"], "UK0130181 30003": today})

		// Undone from the last, every sheep is back where it began.
		ok("undoing the onward move", submit(store.RequestUndo, fmt.Sprintf(`"requestToBeUndone_ID": %d`, onwards.ID)))
		ok("undoing the correction", submit(store.RequestUndo, fmt.Sprintf(`"requestToBeUndone_ID": %d`, fixed.ID)))
		want("after the undos", map[string]livestock.CPH{"UK0130181 30001": source, "UK0130181 30002": source, "UK0130181 30003": source}, since)
	})
}

// TestCorrectCompletedRefused: a completed movement is not corrected (nor
// undone) when an animal of it is held by a movement made since, though
// that movement is older and took the animal in a correction; nor when
// the submitter no longer acts for its destination, whose keeper would
// review it now and answers for the animals there. Nothing moves.
func TestCorrectCompletedRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		today := time.Now().UTC().Truncate(24 * time.Hour)
		source, dest, other := livestock.MustCPH("01/100/0257"), livestock.MustCPH("01/100/0258"), livestock.MustCPH("01/100/0264")
		const a, b, c, d = "UK0130181 30011", "UK0130181 30012", "UK0130181 30013", "UK0130181 30014"
		var seed store.Seed
		for _, id := range []string{a, b, c, d} {
			seed.Animals = append(seed.Animals, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesSheep, id), Species: livestock.SpeciesSheep,
				Sex: livestock.SexFemale, BirthDate: today.AddDate(-1, 0, 0), CPH: source, OnSince: today.AddDate(0, 0, -100), State: livestock.StateRegistered})
		}
		svc, r, keeper1 := sandboxService(t, s, &seed)
		submit := func(typ store.RequestType, content string) store.Request {
			t.Helper()
			var id int64
			_, err := svc.Submit(ctx, typ, movements.Posted{User: keeper1, Body: []byte(`{"content": {` + content + `}}`),
				Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if ran, err := r.RunOne(ctx, []string{movements.JobKind}); !ran || err != nil {
				t.Fatalf("RunOne = %v, %v", ran, err)
			}
			req, err := s.Request(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return req
		}
		move := func(from, to livestock.CPH, days int, tags ...string) string {
			devices := make([]string, len(tags))
			for i, tag := range tags {
				devices[i] = fmt.Sprintf(`{"tagNumber": %q}`, tag)
			}
			return fmt.Sprintf(`"transferDate": %q, "species": "Sheep", "userHolding": %q, "sourceHolding": %q, "destinationHolding": %q,
				"animalCount": %d, "movementGroups": [{"devices": [%s]}]`, today.AddDate(0, 0, days).Format(time.DateOnly), from, from, to, len(tags),
				strings.Join(devices, ", "))
		}
		of := func(target int64) string { return fmt.Sprintf(`, "requestToBeUndone_ID": %d`, target) }
		ok := func(what string, req store.Request) store.Request {
			t.Helper()
			if !req.Status.Applied() {
				t.Fatalf("%s: %s %+v", what, req.Status, req.Errors)
			}
			return req
		}
		refused := func(what string, req store.Request, code livestock.Code, says string) {
			t.Helper()
			if req.Status != store.StatusFail || len(req.Errors) != 1 || req.Errors[0].Code != code || !strings.Contains(req.Errors[0].Message, says) {
				t.Errorf("%s: %s %+v; want Fail with %s saying %q", what, req.Status, req.Errors, code, says)
			}
		}
		on := func(what string, where map[string]livestock.CPH) {
			t.Helper()
			for tag, cph := range where {
				if an, err := s.Animal(ctx, tag); err != nil || an.CPH != cph {
					t.Errorf("%s: %s on %s (%v), want %s", what, tag, an.CPH, err, cph)
				}
			}
		}

		// An older movement, corrected after t1 to take a onward to keeper2.
		ok("b to the destination", submit(store.RequestTransfer, move(source, dest, -6, b)))
		t2 := ok("b onward, awaiting keeper2", submit(store.RequestTransfer, move(dest, other, -1, b)))
		t1 := ok("a and c to the destination", submit(store.RequestTransfer, move(source, dest, -3, a, c)))
		c2 := ok("a added onward", submit(store.RequestCorrection, move(dest, other, -1, b, a)+of(t2.ID)))
		refused("correcting t1 without a", submit(store.RequestCorrection, move(source, dest, -3, c)+of(t1.ID)), livestock.CodeNotCorrectable,
			fmt.Sprintf("request %d", c2.ID))
		refused("undoing t1", submit(store.RequestUndo, fmt.Sprintf(`"requestToBeUndone_ID": %d`, t1.ID)), livestock.CodeMovedLater,
			fmt.Sprintf("request %d", c2.ID))
		on("after the refusals", map[string]livestock.CPH{a: dest, b: dest, c: dest})

		// keeper1 no longer acts for the destination.
		t3 := ok("d to the destination", submit(store.RequestTransfer, move(source, dest, -2, d)))
		var kept []livestock.CPH
		for _, h := range keeper1.Holdings {
			if h.CPH != dest {
				kept = append(kept, h.CPH)
			}
		}
		if _, err := s.Seed(ctx, store.Seed{Update: true, Users: []store.SeedUser{{Name: "keeper1", Role: livestock.RoleKeeper, Holdings: kept}}}); err != nil {
			t.Fatal(err)
		}
		refused("correcting t3", submit(store.RequestCorrection, move(source, dest, -1, d)+of(t3.ID)), livestock.CodeNotCorrectable, "no longer act for holding "+dest.String())
		refused("undoing t3", submit(store.RequestUndo, fmt.Sprintf(`"requestToBeUndone_ID": %d`, t3.ID)), livestock.CodeNotUndoable, "no longer act for holding "+dest.String())
		on("after the grant is gone", map[string]livestock.CPH{d: dest})
	})
}

// TestUndoSeesLateJobs: a transfer submitted before another but applied
// after it (its job tried again later) may take an animal the other
// moved; the other is then not undone, though the movement holding the
// animal has the smaller id.
func TestUndoSeesLateJobs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		today := time.Now().UTC().Truncate(24 * time.Hour)
		const a = "UK0130181 30021"
		svc, _, keeper1 := sandboxService(t, s, &store.Seed{Animals: []store.Animal{{Identifier: livestock.MustTag(livestock.SpeciesSheep, a),
			Species: livestock.SpeciesSheep, Sex: livestock.SexFemale, BirthDate: today.AddDate(-1, 0, 0), CPH: livestock.MustCPH("01/100/0257"),
			OnSince: today.AddDate(0, 0, -100), State: livestock.StateRegistered}}})
		clock := time.Now().Add(time.Minute) // the jobs are due as soon as submitted
		r := jobs.New(s, jobs.Options{Now: func() time.Time { return clock }})
		svc.Register(r)
		var late int64 // the request whose first job fails
		r.Register(movements.JobKind, func(ctx context.Context, tx store.Tx, j store.Job) error {
			var p struct{ RequestID int64 }
			if err := json.Unmarshal(j.Payload, &p); err != nil {
				return err
			}
			if p.RequestID == late && j.Attempts == 0 {
				return errors.New("tried again later")
			}
			return svc.Apply(ctx, tx, j)
		})
		submit := func(typ store.RequestType, content string) int64 {
			t.Helper()
			var id int64
			if _, err := svc.Submit(ctx, typ, movements.Posted{User: keeper1, Body: []byte(`{"content": {` + content + `}}`),
				Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }}); err != nil {
				t.Fatal(err)
			}
			return id
		}
		run := func() {
			t.Helper()
			if ran, err := r.RunOne(ctx, []string{movements.JobKind}); !ran || err != nil {
				t.Fatalf("RunOne = %v, %v", ran, err)
			}
		}
		move := func(from, to string, days int) string {
			return fmt.Sprintf(`"transferDate": %q, "species": "Sheep", "userHolding": %q, "sourceHolding": %q, "destinationHolding": %q,
				"animalCount": 1, "movementGroups": [{"devices": [{"tagNumber": %q}]}]`, today.AddDate(0, 0, days).Format(time.DateOnly), from, from, to, a)
		}
		late = submit(store.RequestTransfer, move("01/100/0258", "01/100/0264", 0)) // onward to keeper2's farm, awaiting review
		run()
		first := submit(store.RequestTransfer, move("01/100/0257", "01/100/0258", -1))
		run()
		clock = clock.Add(time.Hour)
		run()
		for _, id := range []int64{first, late} {
			if req, err := s.Request(ctx, id); err != nil || !req.Status.Applied() {
				t.Fatalf("request %d: %+v, %v", id, req, err)
			}
		}
		undo := submit(store.RequestUndo, fmt.Sprintf(`"requestToBeUndone_ID": %d`, first))
		run()
		if req, err := s.Request(ctx, undo); err != nil || req.Status != store.StatusFail || len(req.Errors) != 1 || req.Errors[0].Code != livestock.CodeMovedLater {
			t.Errorf("undoing the first move = %+v, %v; want Fail with %s", req, err, livestock.CodeMovedLater)
		}
		if an, err := s.Animal(ctx, a); err != nil || an.CPH != livestock.MustCPH("01/100/0258") {
			t.Errorf("%s on %s (%v), want 01/100/0258, where the movement awaiting review holds it", a, an.CPH, err)
		}
	})
}
