package movements_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

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
