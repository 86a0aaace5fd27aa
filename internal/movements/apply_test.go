package movements_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// sendOneSheep submits keeper1's transfer of one sheep from 01/100/0257
// to 01/100/0258 today, without running its job, and returns its id.
func sendOneSheep(t *testing.T, svc *movements.Service, keeper1 livestock.User) int64 {
	t.Helper()
	body := fmt.Sprintf(`{"content": {"transferDate": %q, "species": "Sheep", "userHolding": "01/100/0257",
		"sourceHolding": "01/100/0257", "destinationHolding": "01/100/0258", "animalCount": 1,
		"movementGroups": [{"devices": [{"tagNumber": "UK013018100001"}]}]}}`, time.Now().Format(time.DateOnly))
	var id int64
	_, err := svc.Submit(context.Background(), store.RequestTransfer, movements.Posted{User: keeper1, Body: []byte(body),
		Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestAppliedExactlyOnce runs a transfer's job, then runs a second job
// for the same request (as a crash between commit and acknowledgement, or
// a duplicate enqueue, would): the second changes nothing.
func TestAppliedExactlyOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		svc, r, keeper1 := sandboxService(t, s, nil)
		id := sendOneSheep(t, svc, keeper1)
		kinds := []string{movements.JobKind}
		if ran, err := r.RunOne(ctx, kinds); !ran || err != nil {
			t.Fatalf("RunOne = %v, %v", ran, err)
		}
		first, err := s.Request(ctx, id)
		if err != nil || first.Status != store.StatusSuccess {
			t.Fatalf("request after its job = %+v, %v", first, err)
		}
		a, _ := s.Animal(ctx, "UK0130181 00001")
		if a.CPH != livestock.MustCPH("01/100/0258") {
			t.Fatalf("animal on %s, want 01/100/0258 (a move between keeper1's own holdings needs no review)", a.CPH)
		}

		// The same request's job again.
		payload, _ := json.Marshal(map[string]int64{"requestId": id})
		if err := s.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
			_, err := tx.EnqueueJob(ctx, store.NewJob{Kind: movements.JobKind, Payload: payload})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if ran, err := r.RunOne(ctx, kinds); !ran || err != nil {
			t.Fatalf("second RunOne = %v, %v", ran, err)
		}
		second, _ := s.Request(ctx, id)
		if !second.UpdatedDate.Equal(first.UpdatedDate) || second.Status != first.Status {
			t.Errorf("a second run changed the request: %+v → %+v", first, second)
		}
		m, err := s.Movement(ctx, id)
		if err != nil || m.State != store.MovementCompleted || len(m.Devices) != 1 {
			t.Errorf("movement = %+v, %v", m, err)
		}
	})
}

// sandboxService gives s the sandbox's data and seed's, and returns the
// movements service on s with its jobs registered on a runner, and the
// sandbox's keeper1.
func sandboxService(tb testing.TB, s store.Store, seed *store.Seed) (*movements.Service, *jobs.Runner, livestock.User) {
	tb.Helper()
	return sandboxServiceAt(tb, s, seed, time.Now)
}

// sandboxServiceAt is sandboxService on the clock now.
func sandboxServiceAt(tb testing.TB, s store.Store, seed *store.Seed, now func() time.Time) (*movements.Service, *jobs.Runner, livestock.User) {
	tb.Helper()
	ctx := context.Background()
	if _, err := sandbox.Ensure(ctx, s, bcrypt.MinCost); err != nil {
		tb.Fatal(err)
	}
	if seed != nil {
		if _, err := s.Seed(ctx, *seed); err != nil {
			tb.Fatal(err)
		}
	}
	lists, err := standing.Load("")
	if err != nil {
		tb.Fatal(err)
	}
	svc, err := movements.New(s, lists, now)
	if err != nil {
		tb.Fatal(err)
	}
	r := jobs.New(s, jobs.Options{})
	svc.Register(r)
	keeper1, err := s.UserByName(ctx, "keeper1")
	if err != nil {
		tb.Fatal(err)
	}
	return svc, r, keeper1
}

// TestUndoPutsBackEach: undoing a completed transfer puts every animal
// back on the holding it came from since its own earlier date, animals
// with different dates alike (they are moved back a group at a time).
func TestUndoPutsBackEach(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		source := livestock.MustCPH("01/100/0257")
		since := map[string]time.Time{ // sheep of keeper1's flock 130181, on the source since these days
			"UK0130181 20001": time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC),
			"UK0130181 20002": time.Date(2026, 2, 9, 0, 0, 0, 0, time.UTC),
			"UK0130181 20003": time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC),
		}
		var seed store.Seed
		var devices []string
		for id, on := range since {
			seed.Animals = append(seed.Animals, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesSheep, id), Species: livestock.SpeciesSheep, Sex: livestock.SexFemale,
				BirthDate: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), CPH: source, OnSince: on, State: livestock.StateRegistered})
			devices = append(devices, fmt.Sprintf(`{"tagNumber": %q}`, id))
		}
		svc, r, keeper1 := sandboxService(t, s, &seed)
		kinds := []string{movements.JobKind}
		submit := func(typ store.RequestType, body string) int64 {
			t.Helper()
			var id int64
			_, err := svc.Submit(ctx, typ, movements.Posted{User: keeper1, Body: []byte(body),
				Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if ran, err := r.RunOne(ctx, kinds); !ran || err != nil {
				t.Fatalf("RunOne = %v, %v", ran, err)
			}
			if req, err := s.Request(ctx, id); err != nil || req.Status != store.StatusSuccess {
				t.Fatalf("%s = %+v, %v", typ, req, err)
			}
			return id
		}
		moved := submit(store.RequestTransfer, fmt.Sprintf(`{"content": {"transferDate": %q, "species": "Sheep",
			"userHolding": "01/100/0257", "sourceHolding": "01/100/0257", "destinationHolding": "01/100/0258",
			"animalCount": 3, "movementGroups": [{"devices": [%s]}]}}`, time.Now().Format(time.DateOnly), strings.Join(devices, ", ")))
		for id := range since {
			if a, _ := s.Animal(ctx, id); a.CPH != livestock.MustCPH("01/100/0258") {
				t.Fatalf("%s on %s after the transfer, want 01/100/0258", id, a.CPH)
			}
		}
		submit(store.RequestUndo, fmt.Sprintf(`{"content": {"requestToBeUndone_ID": %d}}`, moved))
		for id, on := range since {
			a, err := s.Animal(ctx, id)
			if err != nil || a.CPH != source || !a.OnSince.Equal(on) {
				t.Errorf("%s after the undo: on %s since %s (%v); want %s since %s", id, a.CPH, a.OnSince.Format(time.DateOnly), err, source, on.Format(time.DateOnly))
			}
		}
	})
}

// TestUndoFlagsChangeUpdatedDate: a request's updatedDate is when it last
// changed, and isFullUndone and undoSupported are part of it (found by an
// audit: an undone transfer kept the date it was applied).
func TestUndoFlagsChangeUpdatedDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		clock := time.Now().UTC().Truncate(time.Second)
		svc, r, keeper1 := sandboxServiceAt(t, s, nil, func() time.Time { return clock })
		submit := func(typ store.RequestType, content string) int64 {
			t.Helper()
			var id int64
			_, err := svc.Submit(ctx, typ, movements.Posted{User: keeper1, Body: []byte(`{"content":` + content + `}`),
				Render: func(req store.Request) (int, []byte, error) { id = req.ID; return 201, nil, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if ran, err := r.RunOne(ctx, []string{movements.JobKind}); !ran || err != nil {
				t.Fatalf("RunOne = %v, %v", ran, err)
			}
			return id
		}
		move := func(to, tag string) string {
			return fmt.Sprintf(`{"transferDate": %q, "species": "Sheep", "userHolding": "01/100/0257", "sourceHolding": "01/100/0257",
				"destinationHolding": %q, "animalCount": 1, "movementGroups": [{"devices": [{"tagNumber": %q}]}]`, clock.Format(time.DateOnly), to, tag)
		}
		check := func(what string, id int64, undone, undoable bool) {
			t.Helper()
			req, err := s.Request(ctx, id)
			if err != nil || !req.UpdatedDate.Equal(clock) || req.IsFullUndone != undone || req.UndoSupported != undoable {
				t.Errorf("%s: updated %v, undone %v, undoable %v (%v); want %v, %v, %v", what, req.UpdatedDate, req.IsFullUndone, req.UndoSupported, err,
					clock, undone, undoable)
			}
		}
		undone := submit(store.RequestTransfer, move("01/100/0258", "UK0130181 00001")+"}")
		clock = clock.Add(time.Hour)
		submit(store.RequestUndo, fmt.Sprintf(`{"requestToBeUndone_ID": %d}`, undone))
		check("the undone transfer", undone, true, false)

		corrected := submit(store.RequestTransfer, move("01/100/0264", "UK0130181 00002")+"}")
		clock = clock.Add(time.Hour)
		submit(store.RequestCorrection, move("01/100/0264", "UK0130181 00003")+fmt.Sprintf(`, "requestToBeCorrected_ID": %d}`, corrected))
		check("the corrected transfer", corrected, false, false)
	})
}

// TestLastAttemptKeepsNothing: a transfer whose job fails for good after
// it has moved the animal (the write done, the call then reporting an
// error), or panics after it, ends QueueFail with the live internal-error
// code rather than staying Pending, and the animal stays where it was:
// the attempt's writes are not committed with the status.
func TestLastAttemptKeepsNothing(t *testing.T) {
	t.Parallel()
	for name, handler := range map[string]func(*movements.Service) jobs.Handler{
		"a write then a failure": func(svc *movements.Service) jobs.Handler {
			return func(ctx context.Context, tx store.Tx, j store.Job) error {
				return svc.Apply(ctx, movesThenFails{tx}, j)
			}
		},
		"a panic after the job": func(svc *movements.Service) jobs.Handler {
			return func(ctx context.Context, tx store.Tx, j store.Job) error {
				if err := svc.Apply(ctx, tx, j); err != nil {
					return err
				}
				panic("handler bug")
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			storetest.Each(t, func(t *testing.T, s store.Store) {
				ctx := context.Background()
				svc, r, keeper1 := sandboxService(t, s, nil)
				id := sendOneSheep(t, svc, keeper1)
				r.Register(movements.JobKind, handler(svc))
				if ran, err := r.RunOne(ctx, []string{movements.JobKind}); !ran || err != nil {
					t.Fatalf("RunOne = %v, %v", ran, err)
				}
				req, err := s.Request(ctx, id)
				if err != nil || req.Status != store.StatusQueueFail || req.UndoSupported || len(req.Errors) != 1 || req.Errors[0].Code != livestock.CodeInternal {
					t.Errorf("request after its job was given up = %+v, %v; want QueueFail with %s", req, err, livestock.CodeInternal)
				}
				if a, _ := s.Animal(ctx, "UK0130181 00001"); a.CPH != livestock.MustCPH("01/100/0257") {
					t.Errorf("animal on %s, want 01/100/0257", a.CPH)
				}
				if _, err := s.Movement(ctx, id); !livestock.IsNotFound(err) {
					t.Errorf("movement after the job was given up: %v, want not found", err)
				}
			})
		})
	}
}

// movesThenFails moves the animals and then reports a failure, as a
// connection lost after the write would; the failure is permanent, so the
// attempt is the job's last.
type movesThenFails struct{ store.Tx }

func (f movesThenFails) MoveAnimals(ctx context.Context, ids []string, cph livestock.CPH, onSince time.Time) error {
	if err := f.Tx.MoveAnimals(ctx, ids, cph, onSince); err != nil {
		return err
	}
	return jobs.Permanent(errors.New("injected failure after the write"))
}
