package movements_test

import (
	"context"
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

// BenchmarkApplyTransfer submits a transfer of n tagged sheep and runs its
// job, on each store: the job's look-ups of the devices run on the writer
// (SQLite's one, or a PostgreSQL committer), where every other write
// waits for them. The sheep are on the source holding the first time;
// after that they are in transit and the job refuses them, having looked
// each one up all the same.
//
//	go test ./internal/movements -run '^$' -bench ApplyTransfer
func BenchmarkApplyTransfer(b *testing.B) {
	for _, d := range storetest.Openers {
		for _, n := range []int{1, 100, 2000} {
			b.Run(fmt.Sprintf("%s/devices=%d", d.Name, n), func(b *testing.B) {
				benchApplyTransfer(b, d.Open(b), n)
			})
		}
	}
}

func benchApplyTransfer(b *testing.B, s store.Store, n int) {
	f := newFlockBench(b, s, n)
	for i := 0; b.Loop(); i++ {
		f.apply(store.RequestTransfer, f.transfer("01/100/0264", i))
	}
}

// BenchmarkUndoTransfer undoes a completed transfer of n tagged sheep
// (between keeper1's own holdings, so no review) and runs the undo's job,
// on each store: the undo checks the sheep and puts them back where they
// came from. The transfer itself, before each undo, is not timed.
//
//	go test ./internal/movements -run '^$' -bench UndoTransfer
func BenchmarkUndoTransfer(b *testing.B) {
	for _, d := range storetest.Openers {
		for _, n := range []int{1, 100, 2000} {
			b.Run(fmt.Sprintf("%s/devices=%d", d.Name, n), func(b *testing.B) {
				f := newFlockBench(b, d.Open(b), n)
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					id := f.apply(store.RequestTransfer, f.transfer("01/100/0258", i))
					b.StartTimer()
					undo := f.apply(store.RequestUndo, fmt.Appendf(nil, `{"content": {"requestToBeUndone_ID": %d}}`, id))
					b.StopTimer()
					if r, err := f.store.Request(context.Background(), undo); err != nil || r.Status != store.StatusSuccess {
						b.Fatalf("undo = %+v, %v; want Success", r, err)
					}
					b.StartTimer()
				}
			})
		}
	}
}

// flockBench is n sheep of keeper1's flock 130181 (10000 and on) on
// 01/100/0257, and the movements service over them.
type flockBench struct {
	b       *testing.B
	store   store.Store
	svc     *movements.Service
	runner  *jobs.Runner
	keeper1 livestock.User
	devices string // the sheep as a transfer's devices
	n       int
}

func newFlockBench(b *testing.B, s store.Store, n int) *flockBench {
	var seed store.Seed
	devices := make([]string, n)
	since := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		tag := fmt.Sprintf("UK0130181 %05d", 10000+i)
		seed.Animals = append(seed.Animals, store.Animal{Identifier: livestock.MustTag(livestock.SpeciesSheep, tag), Species: livestock.SpeciesSheep, Sex: livestock.SexFemale,
			BirthDate: since, CPH: livestock.MustCPH("01/100/0257"), OnSince: since, State: livestock.StateRegistered})
		devices[i] = fmt.Sprintf(`{"tagNumber": %q}`, tag)
	}
	svc, r, keeper1 := sandboxService(b, s, &seed)
	return &flockBench{b: b, store: s, svc: svc, runner: r, keeper1: keeper1, devices: strings.Join(devices, ","), n: n}
}

// transfer is the body of a transfer of the flock to destination today.
func (f *flockBench) transfer(destination string, i int) []byte {
	return fmt.Appendf(nil, `{"content": {"transferDate": %q, "species": "Sheep", "userHolding": "01/100/0257",
		"sourceHolding": "01/100/0257", "destinationHolding": %q, "animalCount": %d, "trackingId": "bench-%d",
		"movementGroups": [{"devices": [%s]}]}}`, time.Now().Format(time.DateOnly), destination, f.n, i, f.devices)
}

// apply submits body as keeper1 and runs its job; it returns the request's id.
func (f *flockBench) apply(typ store.RequestType, body []byte) int64 {
	var id int64
	render := func(r store.Request) (int, []byte, error) { id = r.ID; return 201, nil, nil }
	if _, err := f.svc.Submit(context.Background(), typ, movements.Posted{User: f.keeper1, Body: body, Render: render}); err != nil {
		f.b.Fatal(err)
	}
	if ran, err := f.runner.RunOne(context.Background(), []string{movements.JobKind}); !ran || err != nil {
		f.b.Fatalf("RunOne = %v, %v", ran, err)
	}
	return id
}
