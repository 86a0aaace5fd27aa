package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// The writes of a group: submissions that share commits, the trackingIds
// of concurrent groups, and jobs claimed for a whole group.

// released holds every committer, queues fns meanwhile, then lets every
// committer go at once, so that with several committers their groups run
// side by side; it returns what each call returned.
func released(t *testing.T, s store.Store, fns []txFunc) []error {
	t.Helper()
	n := 1
	if c, ok := s.(interface{ Committers() int }); ok {
		n = c.Committers()
	}
	free := make(chan struct{})
	var holders sync.WaitGroup
	for range n {
		held := make(chan struct{})
		holders.Go(func() {
			must(t, "InSharedTx holding a committer", s.InSharedTx(ctx(t), func(context.Context, store.Tx) error {
				close(held)
				<-free
				return nil
			}))
		})
		<-held
	}
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Go(func() { errs[i] = s.InSharedTx(ctx(t), fn) })
	}
	time.Sleep(50 * time.Millisecond) // let the calls queue: a hint, not a requirement
	close(free)
	holders.Wait()
	wg.Wait()
	return errs
}

// testGroupTrackingIDs submits, from many callers at once, requests whose
// trackingIds repeat in opposite orders, more than one group holds, so
// that on a store with several committers concurrent groups insert the
// same ids. Each id is kept once; every other call is told of the
// conflict. Inserted in their callers' orders, two groups had waited on
// each other's entries of the unique index until PostgreSQL failed one
// of them as deadlocked (KindUnavailable).
func testGroupTrackingIDs(t *testing.T, s store.Store) {
	const ids, rounds = 80, 3
	for round := range rounds {
		var fns []txFunc
		kept := make([]int64, 2*ids)
		for i := range 2 * ids {
			n := i % ids
			if i >= ids {
				n = 2*ids - 1 - i // the same ids, backwards
			}
			r := transfer("keeper1", farmA)
			r.TrackingID = fmt.Sprintf("G%d-%03d", round, n)
			fns = append(fns, func(c context.Context, tx store.Tx) (err error) {
				kept[i], err = tx.InsertRequest(c, r)
				if err == nil {
					_, err = tx.EnqueueJob(c, store.NewJob{Kind: "group-tracking"})
				}
				return err
			})
		}
		errs := released(t, s, fns)
		seen := map[string]int{}
		for i, err := range errs {
			switch {
			case err == nil:
				r, rerr := s.Request(ctx(t), kept[i])
				must(t, "Request", rerr)
				seen[r.TrackingID]++
			case livestock.ErrorKind(err) != livestock.KindConflict:
				t.Errorf("round %d, call %d: %v (%s); want it kept or a conflict", round, i, err, livestock.ErrorKind(err))
			}
		}
		if len(seen) != ids {
			t.Errorf("round %d: %d trackingIds kept; want %d", round, len(seen), ids)
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("round %d: trackingId %s kept %d times", round, id, n)
			}
		}
	}
}

// testGroupWriteChecks runs in one group fns whose writes must each be
// checked: a trackingId used before, a reply kept before, and fresh ones.
// Only the calls that clash fail, with a conflict, and the others' writes
// are all kept, their ids naming what they wrote.
func testGroupWriteChecks(t *testing.T, s store.Store) {
	c := ctx(t)
	old := transfer("keeper1")
	old.TrackingID = "W-old"
	addRequests(t, s, old)
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		return tx.SaveReply(c, store.Reply{UserName: "keeper1", CorrelationID: "reply-old", RequestHash: "h", Status: 201})
	})
	fresh := make([]int64, 6)
	jobs := make([]int64, 6)
	var fns []txFunc
	for i := range 6 {
		fns = append(fns, func(c context.Context, tx store.Tx) (err error) {
			r := transfer("keeper1", farmA, market)
			r.TrackingID = fmt.Sprintf("W-%d", i)
			if i == 2 {
				r.TrackingID = "W-old"
			}
			if fresh[i], err = tx.InsertRequest(c, r); err != nil {
				return err
			}
			if jobs[i], err = tx.EnqueueJob(c, store.NewJob{Kind: "group-checks", Payload: []byte(r.TrackingID)}); err != nil {
				return err
			}
			corr := fmt.Sprintf("reply-%d", i)
			if i == 4 {
				corr = "reply-old"
			}
			return tx.SaveReply(c, store.Reply{UserName: "keeper1", CorrelationID: corr, RequestHash: "h", Status: 201})
		})
	}
	errs := released(t, s, fns)
	for i, err := range errs {
		if clash := i == 2 || i == 4; clash {
			wantKind(t, fmt.Sprintf("call %d", i), err, livestock.KindConflict)
			continue
		}
		if err != nil {
			t.Errorf("call %d: %v", i, err)
			continue
		}
		r, err := s.Request(c, fresh[i])
		if err != nil || r.TrackingID != fmt.Sprintf("W-%d", i) || len(r.Holdings) != 2 {
			t.Errorf("call %d: Request(%d) = %+v, %v", i, fresh[i], r, err)
		}
		j, err := Inspect(s).Job(c, jobs[i])
		if err != nil || string(j.Payload) != r.TrackingID {
			t.Errorf("call %d: Job(%d) = %+v, %v; want the job of %s", i, jobs[i], j, err, r.TrackingID)
		}
		if _, err := s.Reply(c, "keeper1", fmt.Sprintf("reply-%d", i)); err != nil {
			t.Errorf("call %d: its reply: %v", i, err)
		}
	}
}

// testJobGroupClaim runs more RunJob calls at once than jobs are due, so
// that they share groups: each job runs once, by one call, and is done;
// the calls left over find none.
func testJobGroupClaim(t *testing.T, s store.Store) {
	const due, calls = 7, 12
	want := map[int64]bool{}
	for range due {
		want[enqueue(t, s, store.NewJob{Kind: "group-claim", RunAt: now.Add(-time.Minute)})] = true
	}
	var mu sync.Mutex
	runs := map[int64]int{}
	ran := make([]bool, calls)
	errs := make([]error, calls)
	release := hold(t, s)
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			ran[i], errs[i] = s.RunJob(ctx(t), []string{"group-claim"}, now, func(c context.Context, tx store.Tx, j store.Job) error {
				mu.Lock()
				runs[j.ID]++
				mu.Unlock()
				return auditJob(c, tx, j)
			})
		})
	}
	time.Sleep(50 * time.Millisecond) // let the calls queue: a hint, not a requirement
	release()
	wg.Wait()
	found := 0
	for i := range calls {
		must(t, fmt.Sprintf("RunJob %d", i), errs[i])
		if ran[i] {
			found++
		}
	}
	if found != due {
		t.Errorf("%d RunJob calls found a job; want %d", found, due)
	}
	// A fn may run twice (a group's second pass); each job ran, and is done.
	for id := range want {
		if runs[id] == 0 {
			t.Errorf("job %d never ran", id)
		}
		j, err := Inspect(s).Job(ctx(t), id)
		if err != nil || j.State != store.JobDone {
			t.Errorf("job %d = %+v, %v; want done", id, j, err)
		}
	}
	for id := range runs {
		if !want[id] {
			t.Errorf("job %d ran; it was not one of the due", id)
		}
	}
}

// testGroupReads reads one user and one holding from every fn of a group:
// each fn gets what the store holds, whatever an earlier fn did to the
// values it was given, and a group after a Seed update reads the update.
func testGroupReads(t *testing.T, s store.Store) {
	c := ctx(t)
	_, err := s.Seed(c, fixture())
	must(t, "Seed", err)
	read := func(want []livestock.CPH, wantType livestock.HoldingType) {
		t.Helper()
		fns := make([]txFunc, 6)
		for i := range fns {
			fns[i] = func(c context.Context, tx store.Tx) error {
				u, err := tx.UserByName(c, "keeper1")
				if err != nil {
					return err
				}
				var got []livestock.CPH
				for _, h := range u.Holdings {
					got = append(got, h.CPH)
				}
				if !slices.Equal(got, want) {
					return fmt.Errorf("call %d: keeper1's holdings %v; want %v", i, got, want)
				}
				u.Holdings[0].CPH = livestock.CPH{} // the caller's to change
				h, err := tx.Holding(c, market)
				if err == nil && h.Type != wantType {
					err = fmt.Errorf("call %d: market is a %s; want a %s", i, h.Type, wantType)
				}
				return err
			}
		}
		for i, err := range released(t, s, fns) {
			must(t, fmt.Sprintf("call %d", i), err)
		}
	}
	read([]livestock.CPH{farmA, farmB, abattoir}, livestock.HoldingSaleYard)
	_, err = s.Seed(c, store.Seed{Update: true,
		Holdings: []livestock.Holding{{CPH: market, Type: livestock.HoldingShowground}},
		Users:    []store.SeedUser{{Name: "keeper1", Role: livestock.RoleKeeper, Holdings: []livestock.CPH{farmB}}}})
	must(t, "Seed with Update", err)
	read([]livestock.CPH{farmB}, livestock.HoldingShowground)
}

// testJobGroupClaimKinds runs, in a group, RunJob calls of one kind with
// one of two kinds second: the jobs the first claimed ahead for the calls
// of its kind are not taken again by the other, so each job runs once.
func testJobGroupClaimKinds(t *testing.T, s store.Store) {
	const due = 4
	for range due {
		enqueue(t, s, store.NewJob{Kind: "claim-a", RunAt: now.Add(-time.Minute)})
	}
	var mu sync.Mutex
	runs := map[int64]int{}
	release := hold(t, s)
	var wg sync.WaitGroup
	for i := range due + 1 {
		kinds := []string{"claim-a"}
		if i == 1 {
			kinds = []string{"claim-b", "claim-a"}
		}
		wg.Go(func() {
			_, err := s.RunJob(ctx(t), kinds, now, func(c context.Context, tx store.Tx, j store.Job) error {
				mu.Lock()
				runs[j.ID]++
				mu.Unlock()
				return auditJob(c, tx, j)
			})
			must(t, "RunJob", err)
		})
		time.Sleep(5 * time.Millisecond) // the two kinds second: a hint, not a requirement
	}
	time.Sleep(50 * time.Millisecond)
	release()
	wg.Wait()
	if len(runs) != due {
		t.Errorf("%d jobs ran; want %d", len(runs), due)
	}
	for id, n := range runs {
		if n != 1 {
			t.Errorf("job %d ran %d times; want once", id, n)
		}
	}
}

// testGroupWritesWhole inserts, in one group, requests that differ in
// every value a submission sets, each with its job and reply, then updates
// each in another group: every value read back is its own call's. On
// PostgreSQL a group's writes of one kind go as one statement
// (package postgres, unnest.go), which must give no row another's values.
func testGroupWritesWhole(t *testing.T, s store.Store) {
	c := ctx(t)
	const n = 8
	holdings := [][]livestock.CPH{{farmA, market}, {farmB, abattoir, market}}
	want := make([]store.Request, n)
	for i := range want {
		r := transfer(fmt.Sprintf("keeper%d", 1+i%2), holdings[i%2]...)
		r.Species = []livestock.Species{livestock.SpeciesSheep, livestock.SpeciesGoats}[i%2]
		r.RequestDate = base.Add(time.Duration(i) * time.Minute)
		r.UpdatedDate = r.RequestDate
		if i%3 > 0 {
			r.MovementDate = base.AddDate(0, 0, -i)
		}
		if i%2 == 0 {
			r.TrackingID = fmt.Sprintf("whole-%d", i)
		}
		r.CorrelationID = fmt.Sprintf("whole-corr-%d", i)
		r.Content = fmt.Appendf(nil, `{"n":%d}`, i)
		want[i] = r
	}
	jobs := make([]int64, n)
	fns := make([]txFunc, n)
	for i := range fns {
		fns[i] = func(c context.Context, tx store.Tx) (err error) {
			r := want[i]
			if want[i].ID, err = tx.InsertRequest(c, r); err != nil {
				return err
			}
			if jobs[i], err = tx.EnqueueJob(c, store.NewJob{Kind: "group-whole", Payload: []byte(r.CorrelationID),
				MaxAttempts: 2 + i, RunAt: r.RequestDate}); err != nil {
				return err
			}
			return tx.SaveReply(c, store.Reply{UserName: r.UserName, CorrelationID: r.CorrelationID, RequestHash: fmt.Sprint("h", i),
				Status: 200 + i, Body: fmt.Appendf(nil, "body %d", i), CreatedAt: r.RequestDate, RequestID: fmt.Sprint(want[i].ID)})
		}
	}
	for i, err := range released(t, s, fns) {
		must(t, fmt.Sprintf("call %d", i), err)
	}
	for i := range fns {
		fns[i] = func(c context.Context, tx store.Tx) error {
			r := &want[i]
			r.Status = []store.RequestStatus{store.StatusSuccess, store.StatusFail, store.StatusCompletedWarning}[i%3]
			r.UpdatedDate = r.RequestDate.Add(time.Hour)
			r.Errors = []livestock.FieldError{{Code: livestock.CodeInternal, Message: fmt.Sprint("error ", i)}}
			r.Warnings = []livestock.FieldError{{Code: livestock.CodeStandstill, Message: fmt.Sprint("warning ", i)}}
			r.UndoSupported, r.IsFullUndone = i%2 == 0, i%3 == 0
			r.DocumentRef = fmt.Sprint("DOC-", i)
			return tx.UpdateRequest(c, *r)
		}
	}
	for i, err := range released(t, s, fns) {
		must(t, fmt.Sprintf("update %d", i), err)
	}
	for i, w := range want {
		got, err := s.Request(c, w.ID)
		if err != nil {
			t.Errorf("call %d: Request(%d): %v", i, w.ID, err)
			continue
		}
		if diff := cmp.Diff(w, got, cmpopts.EquateEmpty(), cmpopts.EquateApproxTime(time.Millisecond), cmpOpts); diff != "" {
			t.Errorf("call %d: request (-want +got):\n%s", i, diff)
		}
		j, err := Inspect(s).Job(c, jobs[i])
		if err != nil || j.Kind != "group-whole" || string(j.Payload) != w.CorrelationID || j.MaxAttempts != 2+i || !near(j.RunAt, w.RequestDate) {
			t.Errorf("call %d: Job(%d) = %+v, %v; want the job of %s", i, jobs[i], j, err, w.CorrelationID)
		}
		rep, err := s.Reply(c, w.UserName, w.CorrelationID)
		if err != nil || rep.Status != 200+i || string(rep.Body) != fmt.Sprint("body ", i) || rep.RequestHash != fmt.Sprint("h", i) ||
			rep.RequestID != fmt.Sprint(w.ID) || !near(rep.CreatedAt, w.RequestDate) {
			t.Errorf("call %d: Reply = %+v, %v", i, rep, err)
		}
	}
}

// near reports whether a and b are the same instant to the millisecond:
// a store keeps instants to the microsecond or to the millisecond.
func near(a, b time.Time) bool { return a.Sub(b).Abs() < time.Millisecond }
