package tracing_test

import (
	"context"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// registry builds a small registry in a store, movement by movement, as
// the tests of this package need it.
type registry struct {
	t *testing.T
	s store.Store
}

func ymd(m time.Month, d int) time.Time { return time.Date(2025, m, d, 0, 0, 0, 0, time.UTC) }

// seed adds holdings and animals (identifier → holding and since when).
func (r registry) seed(holdings []livestock.CPH, animals map[string]store.Animal) {
	r.t.Helper()
	var sd store.Seed
	for _, h := range holdings {
		sd.Holdings = append(sd.Holdings, livestock.Holding{CPH: h, Type: livestock.HoldingProducer})
	}
	for id, a := range animals {
		a.Identifier, a.Species, a.Sex, a.State = livestock.MustTag(livestock.SpeciesSheep, id), livestock.SpeciesSheep, livestock.SexFemale, livestock.StateRegistered
		if a.BirthDate.IsZero() {
			a.BirthDate = a.OnSince
		}
		sd.Animals = append(sd.Animals, a)
	}
	if _, err := r.s.Seed(context.Background(), sd); err != nil {
		r.t.Fatalf("Seed: %v", err)
	}
}

// move stores m (with its transfer request) and returns its id.
func (r registry) move(m store.Movement) int64 {
	r.t.Helper()
	if m.UserName == "" {
		m.UserName = "keeper"
	}
	if m.Species.IsZero() {
		m.Species = livestock.SpeciesSheep
	}
	err := r.s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) (err error) {
		m.ID, err = tx.InsertRequest(ctx, store.Request{Type: store.RequestTransfer, Status: store.StatusSuccess,
			UserName: m.UserName, RequestDate: m.TransferDate, UpdatedDate: m.TransferDate, CorrelationID: "c",
			Holdings: []livestock.CPH{m.Source, m.Destination}, Content: []byte(`{}`)})
		if err != nil {
			return err
		}
		return tx.InsertMovement(ctx, m)
	})
	if err != nil {
		r.t.Fatalf("move %s → %s: %v", m.Source, m.Destination, err)
	}
	return m.ID
}

// The sheep of the tests.
const (
	c1 = "UK0100001 00001"
	c2 = "UK0100001 00002"
	c3 = "UK0100001 00003"
	c4 = "UK0100001 00004"
)

// dev is a device of a sheep movement: the animal's tag, from prior since
// since.
func dev(id string, prior livestock.CPH, since time.Time, outcome string) store.MovementDevice {
	tag, err := livestock.ParseTag(livestock.SpeciesSheep, id)
	if err != nil {
		panic(err)
	}
	return store.MovementDevice{Identifier: tag, PriorCPH: prior, PriorOnSince: since, Outcome: outcome}
}

// flockBatch is the batch number of the tests' untagged sheep.
var flockBatch, _ = livestock.ParseBatchNumber("UK010001")

func batch(total, accepted int) []store.MovementBatch {
	return []store.MovementBatch{{BatchNumber: flockBatch, AnimalTotal: total, Accepted: accepted}}
}
