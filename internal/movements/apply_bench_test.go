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
	// Sheep 10000 and on of keeper1's flock 130181, on 01/100/0257.
	var seed store.Seed
	tags := make([]string, n)
	since := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		tags[i] = fmt.Sprintf("UK0130181 %05d", 10000+i)
		seed.Animals = append(seed.Animals, store.Animal{Identifier: tags[i], Species: "Sheep", Sex: "female",
			BirthDate: since, CPH: livestock.MustCPH("01/100/0257"), OnSince: since, State: "registered"})
	}
	svc, r, keeper1 := sandboxService(b, s, &seed)
	ctx := context.Background()
	devices := make([]string, n)
	for i, t := range tags {
		devices[i] = fmt.Sprintf(`{"tagNumber": %q}`, t)
	}
	body := func(i int) []byte {
		return fmt.Appendf(nil, `{"content": {"transferDate": %q, "species": "Sheep", "userHolding": "01/100/0257",
			"sourceHolding": "01/100/0257", "destinationHolding": "01/100/0264", "animalCount": %d, "trackingId": "bench-%d",
			"movementGroups": [{"devices": [%s]}]}}`, time.Now().Format(time.DateOnly), n, i, strings.Join(devices, ","))
	}
	render := func(store.Request) (int, []byte, error) { return 201, nil, nil }
	kinds := []string{movements.JobKind}
	for i := 0; b.Loop(); i++ {
		if _, err := svc.Submit(ctx, store.RequestTransfer, movements.Posted{User: keeper1, Body: body(i), Render: render}); err != nil {
			b.Fatal(err)
		}
		if ran, err := r.RunOne(ctx, kinds); !ran || err != nil {
			b.Fatalf("RunOne = %v, %v", ran, err)
		}
	}
}
