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

// desk submits the sandbox keepers' requests to the movements service and
// runs each one's job, for the tests of undo and correction.
type desk struct {
	t     *testing.T
	s     store.Store
	svc   *movements.Service
	run   func() // runs the next due job
	today time.Time
	long  time.Time // since when herd's sheep are on farm1
	users map[string]livestock.User
}

// herd is newDesk with each of tags on farm1 since 100 days ago (d.long).
func herd(t *testing.T, s store.Store, tags ...string) *desk {
	t.Helper()
	long := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -100)
	since := map[string]time.Time{}
	for _, tag := range tags {
		since[tag] = long
	}
	d := newDesk(t, s, farm1, since)
	d.long = long // the seed's own day, should midnight fall between
	return d
}

// newDesk seeds sheep of keeper1's flock 130181 on holding, each on it
// since its date, and a runner the test may replace (desk.run).
func newDesk(t *testing.T, s store.Store, holding livestock.CPH, since map[string]time.Time) *desk {
	t.Helper()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	var seed store.Seed
	for id, on := range since {
		seed.Animals = append(seed.Animals, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesSheep, id), Species: livestock.SpeciesSheep,
			Sex: livestock.SexFemale, BirthDate: today.AddDate(-1, 0, 0), CPH: holding, OnSince: on, State: livestock.StateRegistered})
	}
	svc, r, keeper1 := sandboxService(t, s, &seed)
	keeper2, err := s.UserByName(context.Background(), "keeper2")
	if err != nil {
		t.Fatal(err)
	}
	d := &desk{t: t, s: s, svc: svc, today: today, users: map[string]livestock.User{"keeper1": keeper1, "keeper2": keeper2}}
	d.run = func() {
		t.Helper()
		if ran, err := r.RunOne(context.Background(), []string{movements.JobKind}); !ran || err != nil {
			t.Fatalf("RunOne = %v, %v", ran, err)
		}
	}
	return d
}

// post submits content as user without running its job.
func (d *desk) post(user string, typ store.RequestType, content string) int64 {
	d.t.Helper()
	var id int64
	if _, err := d.svc.Submit(context.Background(), typ, movements.Posted{User: d.users[user], Body: []byte(`{"content": {` + content + `}}`),
		Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }}); err != nil {
		d.t.Fatal(err)
	}
	return id
}

// refusedAtOnce checks that content, submitted as user, is refused at
// submission with the one error code, saying says.
func (d *desk) refusedAtOnce(what, user string, typ store.RequestType, content string, code livestock.Code, says string) {
	d.t.Helper()
	_, err := d.svc.Submit(context.Background(), typ, movements.Posted{User: d.users[user], Body: []byte(`{"content": {` + content + `}}`),
		Render: func(store.Request) (int, []byte, error) { return 201, nil, nil }})
	var e *livestock.Error
	if !errors.As(err, &e) || e.Kind != livestock.KindInvalid || len(e.Fields) != 1 || e.Fields[0].Code != code || !strings.Contains(e.Fields[0].Message, says) {
		d.t.Errorf("%s: %v; want a 400 with %s saying %q", what, err, code, says)
	}
}

// send submits content as user, runs its job and returns the request.
func (d *desk) send(user string, typ store.RequestType, content string) store.Request {
	d.t.Helper()
	id := d.post(user, typ, content)
	d.run()
	return d.request(id)
}

func (d *desk) request(id int64) store.Request {
	d.t.Helper()
	req, err := d.s.Request(context.Background(), id)
	if err != nil {
		d.t.Fatal(err)
	}
	return req
}

// ok is req, which must have been applied.
func (d *desk) ok(what string, req store.Request) store.Request {
	d.t.Helper()
	if !req.Status.Applied() {
		d.t.Fatalf("%s: %s %+v", what, req.Status, req.Errors)
	}
	return req
}

// refused checks that req failed with the one error code, saying says.
func (d *desk) refused(what string, req store.Request, code livestock.Code, says string) {
	d.t.Helper()
	if req.Status != store.StatusFail || len(req.Errors) != 1 || req.Errors[0].Code != code || !strings.Contains(req.Errors[0].Message, says) {
		d.t.Errorf("%s: %s %+v; want Fail with %s saying %q", what, req.Status, req.Errors, code, says)
	}
}

// move is a transfer's content: tags from one holding to another, days
// from today, reported by the keeper of userHolding.
func (d *desk) move(userHolding, from, to livestock.CPH, days int, tags ...string) string {
	devices := make([]string, len(tags))
	for i, tag := range tags {
		devices[i] = fmt.Sprintf(`{"tagNumber": %q}`, tag)
	}
	return fmt.Sprintf(`"transferDate": %q, "species": "Sheep", "userHolding": %q, "sourceHolding": %q, "destinationHolding": %q,
		"animalCount": %d, "movementGroups": [{"devices": [%s]}]`, d.day(days), userHolding, from, to, len(tags), strings.Join(devices, ", "))
}

func (d *desk) day(days int) string { return d.today.AddDate(0, 0, days).Format(time.DateOnly) }

// named adds the request a correction or an undo names.
func named(target int64) string { return fmt.Sprintf(`"requestToBeUndone_ID": %d`, target) }

// review is a review's content: accepted or rejected whole.
func (d *desk) review(holding livestock.CPH, target int64, accept bool, days int) string {
	return fmt.Sprintf(`"holding": %q, "reviewMovement": {"requestId": %d, "isAccepted": %v, "arrivalDate": %q}`, holding, target, accept, d.day(days))
}

// on checks where each tag's animal is, and since when when since has it.
func (d *desk) on(what string, where map[string]livestock.CPH, since map[string]time.Time) {
	d.t.Helper()
	for tag, cph := range where {
		a, err := d.s.Animal(context.Background(), tag)
		if err != nil || a.CPH != cph || (since != nil && !a.OnSince.Equal(since[tag])) {
			d.t.Errorf("%s: %s on %s since %s (%v); want %s since %s", what, tag, a.CPH, a.OnSince.Format(time.DateOnly), err,
				cph, since[tag].Format(time.DateOnly))
		}
	}
}

var (
	farm1  = livestock.MustCPH("01/100/0257") // keeper1's
	own2   = livestock.MustCPH("01/100/0258") // keeper1's too: a move there needs no review
	own3   = livestock.MustCPH("01/100/0259") // keeper1's too
	other1 = livestock.MustCPH("01/100/0264") // keeper2's farm
	other2 = livestock.MustCPH("01/100/0263") // keeper2's too
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
		const a, b, c = "UK0130181 30001", "UK0130181 30002", "UK0130181 30003"
		today := time.Now().UTC().Truncate(24 * time.Hour)
		since := map[string]time.Time{a: today.AddDate(0, 0, -300), b: today.AddDate(0, 0, -200), c: today.AddDate(0, 0, -250)}
		d := newDesk(t, s, farm1, since)

		first := d.ok("the transfer", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -2, a, b)))
		moved := map[string]livestock.CPH{a: own2, b: own2, c: farm1}
		movedOn := map[string]time.Time{a: today.AddDate(0, 0, -2), b: today.AddDate(0, 0, -2), c: since[c]}
		d.on("after the transfer", moved, movedOn)

		// Refused by the rules (a tag the register does not hold): nothing is put back.
		if bad := d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, own2, 0, a, "UK0130181 39999")+", "+named(first.ID)); bad.Status != store.StatusFail {
			t.Errorf("a correction naming an unknown tag: %s, want Fail", bad.Status)
		}
		d.on("after a refused correction", moved, movedOn)

		// b dropped, c added, a day later.
		fixed := d.ok("the correction", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, own2, -1, a, c)+", "+named(first.ID)))
		d.on("after the correction", map[string]livestock.CPH{a: own2, b: farm1, c: own2},
			map[string]time.Time{a: today.AddDate(0, 0, -1), b: since[b], c: today.AddDate(0, 0, -1)})
		if m, err := s.Movement(context.Background(), first.ID); err != nil || m.RequestID != fixed.ID || m.State != store.MovementCompleted ||
			!m.TransferDate.Equal(today.AddDate(0, 0, -1)) || len(m.Devices) != 2 {
			t.Errorf("the movement after the correction = %+v, %v", m, err)
		}
		if orig := d.request(first.ID); orig.UndoSupported || !fixed.UndoSupported {
			t.Errorf("undoSupported: the corrected transfer %v, the correction %v; want false, true", orig.UndoSupported, fixed.UndoSupported)
		}

		// c moves on; the movement can no longer be undone, so neither corrected.
		onwards := d.ok("the onward move", d.send("keeper1", store.RequestTransfer, d.move(own2, own2, own3, 0, c)))
		d.refused("correcting a movement whose animal moved on", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, own2, -1, a)+", "+named(fixed.ID)),
			livestock.CodeNotCorrectable, fmt.Sprintf("request %d", onwards.ID))
		d.on("after the blocked correction", map[string]livestock.CPH{a: own2, b: farm1, c: own3},
			map[string]time.Time{a: today.AddDate(0, 0, -1), b: since[b], c: today})

		// Undone from the last, every sheep is back where it began.
		d.ok("undoing the onward move", d.send("keeper1", store.RequestUndo, named(onwards.ID)))
		d.ok("undoing the correction", d.send("keeper1", store.RequestUndo, named(fixed.ID)))
		d.on("after the undos", map[string]livestock.CPH{a: farm1, b: farm1, c: farm1}, since)
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
		const a, b, c, e = "UK0130181 30011", "UK0130181 30012", "UK0130181 30013", "UK0130181 30014"
		d := herd(t, s, a, b, c, e)

		// An older movement, corrected after t1 to take a onward to keeper2.
		d.ok("b to own2", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -6, b)))
		t2 := d.ok("b onward, awaiting keeper2", d.send("keeper1", store.RequestTransfer, d.move(own2, own2, other1, -1, b)))
		t1 := d.ok("a and c to own2", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -3, a, c)))
		c2 := d.ok("a added onward", d.send("keeper1", store.RequestCorrection, d.move(own2, own2, other1, -1, b, a)+", "+named(t2.ID)))
		d.refused("correcting t1 without a", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, own2, -3, c)+", "+named(t1.ID)),
			livestock.CodeNotCorrectable, fmt.Sprintf("request %d", c2.ID))
		d.refused("undoing t1", d.send("keeper1", store.RequestUndo, named(t1.ID)), livestock.CodeMovedLater, fmt.Sprintf("request %d", c2.ID))
		d.on("after the refusals", map[string]livestock.CPH{a: own2, b: own2, c: own2}, nil)

		// keeper1 no longer acts for own2.
		t3 := d.ok("e to own2", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -2, e)))
		var kept []livestock.CPH
		for _, h := range d.users["keeper1"].Holdings {
			if h.CPH != own2 {
				kept = append(kept, h.CPH)
			}
		}
		if _, err := s.Seed(context.Background(), store.Seed{Update: true, Users: []store.SeedUser{{Name: "keeper1", Role: livestock.RoleKeeper, Holdings: kept}}}); err != nil {
			t.Fatal(err)
		}
		d.refused("correcting t3", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, own2, -1, e)+", "+named(t3.ID)),
			livestock.CodeNotCorrectable, "no longer act for holding "+own2.String())
		d.refused("undoing t3", d.send("keeper1", store.RequestUndo, named(t3.ID)), livestock.CodeNotUndoable, "no longer act for holding "+own2.String())
		d.on("after the grant is gone", map[string]livestock.CPH{e: own2}, nil)
	})
}

// TestUndoPastRejected: an animal a later movement's review rejected did
// not move in it, so it does not stand in the way of undoing or
// correcting the move that brought it: keeper2 reports a on-move of a and
// b from farm1, keeper1 moves a elsewhere, then consents to keeper2's
// report, which leaves a rejected (it had left).
func TestUndoPastRejected(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const a, b = "UK0130181 30051", "UK0130181 30052"
		d := herd(t, s, a, b)
		x := d.ok("keeper2's on-move, awaiting keeper1", d.send("keeper2", store.RequestTransfer, d.move(other1, farm1, other1, -5, a, b)))
		m := d.ok("keeper1 moves a to own2", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -3, a)))
		d.ok("keeper1 consents", d.send("keeper1", store.RequestReview, d.review(farm1, x.ID, true, -5)))
		d.on("after the consent", map[string]livestock.CPH{a: own2, b: other1}, nil)
		fixed := d.ok("correcting keeper1's move", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, own2, -2, a)+", "+named(m.ID)))
		d.ok("undoing it", d.send("keeper1", store.RequestUndo, named(fixed.ID)))
		d.on("after the undo", map[string]livestock.CPH{a: farm1}, map[string]time.Time{a: d.long})
	})
}

// TestUndoPastDestinationRejection: an animal the destination's review
// rejected did not move in that movement, so it does not keep its sender
// from undoing the move that brought it; the review can then no longer be
// undone (its rejected animal is not where it was), as after any later
// move of the animal.
func TestUndoPastDestinationRejection(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const a, c = "UK0130181 30081", "UK0130181 30082"
		d := herd(t, s, a, c)
		d.ok("c to own2", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -6, c)))
		m := d.ok("a to own2", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -5, a)))
		y := d.ok("a and c to keeper2", d.send("keeper1", store.RequestTransfer, d.move(own2, own2, other1, -3, a, c)))
		r := d.ok("keeper2 takes c, rejects a", d.send("keeper2", store.RequestReview, fmt.Sprintf(
			`"holding": %q, "reviewMovement": {"requestId": %d, "isAccepted": true, "arrivalDate": %q, "rejectedDevices": [{"tagNumber": %q}]}`,
			other1, y.ID, d.day(-3), a)))
		d.ok("keeper1 undoing the move of a", d.send("keeper1", store.RequestUndo, named(m.ID)))
		d.refused("keeper2 undoing the review", d.send("keeper2", store.RequestUndo, named(r.ID)), livestock.CodeMovedLater, "moved in later requests")
		d.on("after both", map[string]livestock.CPH{a: farm1, c: other1}, map[string]time.Time{a: d.long, c: d.today.AddDate(0, 0, -3)})
	})
}

// TestCorrectReportedByBoth: a movement the other end's keeper reported
// too carries their report, so a correction may change its animals but
// not make it another move (another holding, another date): that would
// leave their report standing on nothing, and the move undoable (V083).
func TestCorrectReportedByBoth(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const a, b = "UK0130181 30091", "UK0130181 30092"
		d := herd(t, s, a, b)
		first := d.ok("sent", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, other1, -2, a)))
		if again := d.send("keeper2", store.RequestTransfer, d.move(other1, farm1, other1, -2, a)); again.Status != store.StatusCompletedWarning {
			t.Fatalf("keeper2's report of the same move: %s %+v", again.Status, again.Errors)
		}
		for what, body := range map[string]string{"to another holding": d.move(farm1, farm1, own3, -2, a), "to another date": d.move(farm1, farm1, other1, -1, a)} {
			d.refused("correcting it "+what, d.send("keeper1", store.RequestCorrection, body+", "+named(first.ID)), livestock.CodeNotCorrectable, "reported this move too")
		}
		fixed := d.ok("adding b", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, other1, -2, a, b)+", "+named(first.ID)))
		if m, err := s.Movement(context.Background(), first.ID); err != nil || len(m.Duplicates) != 1 || m.RequestID != fixed.ID {
			t.Errorf("the movement after the correction = %+v, %v; want keeper2's report still on it", m, err)
		}
		d.refused("undoing it", d.send("keeper1", store.RequestUndo, named(fixed.ID)), livestock.CodeReportedByBoth, "reported this move too")
	})
}

// TestReviewUndoHeldElsewhere: undoing a rejection makes its movement hold
// the rejected animal again, so it is refused while another movement
// awaiting review holds it: else two movements would hold one animal, and
// accepting both would move it off a holding its second never left from.
func TestReviewUndoHeldElsewhere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const a = "UK0130181 30061"
		d := herd(t, s, a)
		m := d.ok("a to keeper2's farm", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, other1, -5, a)))
		r1 := d.ok("rejected", d.send("keeper2", store.RequestReview, d.review(other1, m.ID, false, -5)))
		y := d.ok("a to keeper2's other farm", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, other2, -3, a)))
		r2 := d.ok("rejected too", d.send("keeper2", store.RequestReview, d.review(other2, y.ID, false, -3)))
		d.ok("undoing the first rejection", d.send("keeper2", store.RequestUndo, named(r1.ID)))
		d.refused("undoing the second rejection", d.send("keeper2", store.RequestUndo, named(r2.ID)), livestock.CodeMovedLater, "moved in later requests")
		d.on("after the refusal", map[string]livestock.CPH{a: farm1}, nil)
	})
}

// TestUndoSeesLateJobs: a transfer submitted before another but applied
// after it (its job tried again later) may take an animal the other
// moved; the other is then not undone, though the movement holding the
// animal has the smaller id.
func TestUndoSeesLateJobs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const a = "UK0130181 30021"
		d := herd(t, s, a)
		clock := time.Now().Add(time.Minute) // the jobs are due as soon as submitted
		r := jobs.New(s, jobs.Options{Now: func() time.Time { return clock }})
		var late int64 // the request whose first job fails
		r.Register(movements.JobKind, func(ctx context.Context, tx store.Tx, j store.Job) error {
			var p struct{ RequestID int64 }
			if err := json.Unmarshal(j.Payload, &p); err != nil {
				return err
			}
			if p.RequestID == late && j.Attempts == 0 {
				return errors.New("tried again later")
			}
			return d.svc.Apply(ctx, tx, j)
		})
		d.run = func() {
			t.Helper()
			if ran, err := r.RunOne(context.Background(), []string{movements.JobKind}); !ran || err != nil {
				t.Fatalf("RunOne = %v, %v", ran, err)
			}
		}
		late = d.post("keeper1", store.RequestTransfer, d.move(own2, own2, other1, 0, a)) // onward to keeper2's farm, awaiting review
		d.run()
		first := d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, own2, -1, a))
		clock = clock.Add(time.Hour)
		d.run()
		d.ok("the first move", first)
		d.ok("the late onward move", d.request(late))
		d.refused("undoing the first move", d.send("keeper1", store.RequestUndo, named(first.ID)), livestock.CodeMovedLater, "moved in later requests")
		d.on("after the refusal", map[string]livestock.CPH{a: own2}, nil)
	})
}

// TestCorrectRedirect: the live service keeps only the species and the
// reporting end's holding through a correction (4077), so a move sent to
// the wrong holding is corrected: awaiting review, it then awaits the new
// holding's review (the old one can no longer review it), or none when
// the sender acts for it; completed, its animals go back and on to the
// new holding.
func TestCorrectRedirect(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const a = "UK0130181 30031"
		d := herd(t, s, a)
		state := func(what string, id int64, want store.MovementState, reviewer livestock.CPH) {
			t.Helper()
			if m, err := s.Movement(context.Background(), id); err != nil || m.State != want || m.ReviewHolding != reviewer {
				t.Errorf("%s: the movement is %s awaiting %q (%v); want %s awaiting %q", what, m.State, m.ReviewHolding, err, want, reviewer)
			}
		}
		first := d.ok("to keeper2's farm", d.send("keeper1", store.RequestTransfer, d.move(farm1, farm1, other1, -2, a)))
		state("sent", first.ID, store.MovementPendingReview, other1)

		elsewhere := d.ok("to keeper2's other farm", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, other2, -2, a)+", "+named(first.ID)))
		state("redirected", first.ID, store.MovementPendingReview, other2)
		if old := d.send("keeper2", store.RequestReview, d.review(other1, elsewhere.ID, true, -1)); old.Status != store.StatusFail {
			t.Errorf("a review by the holding it was first sent to: %s, want Fail", old.Status)
		}
		d.on("awaiting review", map[string]livestock.CPH{a: farm1}, map[string]time.Time{a: d.long})

		// keeper2's review, submitted while the move still awaited it and
		// decided after the correction below: to its job, too, the request
		// is by then an id not in use.
		homeID := d.post("keeper1", store.RequestCorrection, d.move(farm1, farm1, own2, -2, a)+", "+named(elsewhere.ID))
		lateID := d.post("keeper2", store.RequestReview, d.review(other2, elsewhere.ID, true, -1))
		d.run()
		d.run()
		home := d.ok("to keeper1's own holding", d.request(homeID))
		d.refused("a review of the move before it was sent home", d.request(lateID), livestock.CodeTargetUnknown, "no such request")
		state("to an own holding", first.ID, store.MovementCompleted, livestock.CPH{})
		// Nothing of it is about keeper2's holdings now: to keeper2 the
		// requests that named them are ids not in use.
		for _, id := range []int64{first.ID, elsewhere.ID} {
			d.refusedAtOnce("keeper2 naming a request that once named their farm", "keeper2", store.RequestReview, d.review(other1, id, true, -1),
				livestock.CodeTargetUnknown, "no such request")
		}
		d.on("at home", map[string]livestock.CPH{a: own2}, map[string]time.Time{a: d.today.AddDate(0, 0, -2)})

		third := d.ok("to another own holding", d.send("keeper1", store.RequestCorrection, d.move(farm1, farm1, own3, -2, a)+", "+named(home.ID)))
		d.on("moved on by the correction", map[string]livestock.CPH{a: own3}, nil)
		d.ok("undone", d.send("keeper1", store.RequestUndo, named(third.ID)))
		d.on("after the undo", map[string]livestock.CPH{a: farm1}, map[string]time.Time{a: d.long})
	})
}
