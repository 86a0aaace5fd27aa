package storetest

import (
	"context"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// StoredIdentifiers checks how s keeps tags (a movement's, an animal's, an
// issued tag's), RFIDs and batch numbers, which its records hold as
// livestock values: each is stored in its printed form (the decimal form
// for an RFID, lower-case unknown, "" for none) and read back parsed, a
// tag by the rules of its record's species. A stored value that does not
// parse is refused when read: it can only come from outside Drover, and
// read as text it would reach a keeper's listing unchecked.
func StoredIdentifiers(t *testing.T, s store.Store, b Behind) {
	day := ymd(2026, 3, 1)
	sheep := pending(farmB, livestock.SpeciesSheep, day)
	sheep.Devices = []store.MovementDevice{{Identifier: tag(livestock.SpeciesSheep, "UK0100001 00001"), RFID: rfid("8200ce82dfdae801"),
		PriorCPH: farmA, PriorOnSince: day}}
	sheep.Batches = []store.MovementBatch{{BatchNumber: batch("UK010001"), AnimalTotal: 2}, {BatchNumber: batch("UNKNOWN"), AnimalTotal: 1}}
	cattle := pending(farmB, livestock.SpeciesCattle, day)
	cattle.Batches = nil
	cattle.Devices = []store.MovementDevice{{Identifier: tag(livestock.SpeciesCattle, "UK 100002 4 00017"), PriorCPH: farmA, PriorOnSince: day}}
	deer := pending(farmB, livestock.SpeciesDeer, day)
	deer.Batches = []store.MovementBatch{{AnimalTotal: 3}}

	for _, tt := range []struct {
		m                  store.Movement
		tag, rfid, batches string // as stored
	}{
		{sheep, "UK0100001 00001", "0826012345600001", "UK010001,unknown"},
		{cattle, "UK100002400017", "", ""},
		{deer, "", "", ""},
	} {
		id := addMovement(t, s, tt.m)
		if tt.tag != "" {
			got := b.Text(t, "SELECT identifier || '|' || COALESCE(rfid, '') FROM movement_devices WHERE movement_id = $1", id)
			if want := tt.tag + "|" + tt.rfid; got != want {
				t.Errorf("%s: stored device %q, want %q", store.SpeciesName(tt.m.Species), got, want)
			}
		}
		got := b.Text(t, "SELECT COALESCE(string_agg(batch_number, ',' ORDER BY position), '') FROM movement_batches WHERE movement_id = $1", id)
		if got != tt.batches {
			t.Errorf("%s: stored batch numbers %q, want %q", store.SpeciesName(tt.m.Species), got, tt.batches)
		}
		m := movement(t, s, id)
		if len(m.Devices) != len(tt.m.Devices) || len(m.Batches) != len(tt.m.Batches) {
			t.Fatalf("%s: read back %d devices and %d batches, want %d and %d", store.SpeciesName(tt.m.Species),
				len(m.Devices), len(m.Batches), len(tt.m.Devices), len(tt.m.Batches))
		}
		for i, d := range m.Devices {
			if w := tt.m.Devices[i]; d.Identifier != w.Identifier || d.Identifier.Species() != tt.m.Species || d.RFID != w.RFID {
				t.Errorf("%s: device read back as %q (%s), RFID %q; want %q, %q", store.SpeciesName(tt.m.Species),
					d.Identifier, store.SpeciesName(d.Identifier.Species()), d.RFID, w.Identifier, w.RFID)
			}
		}
		for i, l := range m.Batches {
			if w := tt.m.Batches[i].BatchNumber; l.BatchNumber != w {
				t.Errorf("%s: batch %d read back as %q, want %q", store.SpeciesName(tt.m.Species), i, l.BatchNumber, w)
			}
		}
	}

	// The fixture's seeded sheep and its cattle tag, read back as tags of
	// their species; then the sheep's identifier made one that is no tag.
	_, err := s.Seed(ctx(t), fixture())
	must(t, "Seed", err)
	a, err := s.Animal(ctx(t), "UK0100001 00001")
	must(t, "Animal", err)
	if a.Identifier != tag(livestock.SpeciesSheep, "UK0100001 00001") || a.Identifier.Mark() != livestock.MustFlockMark("100001") {
		t.Errorf("Animal read back as %q (%s), mark %q", a.Identifier, store.SpeciesName(a.Identifier.Species()), a.Identifier.Mark())
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		l, err := tx.LookUpRegistration(c, "UK100002400017", store.Parents{})
		if err == nil && (l.Tag == nil || l.Tag.Identifier != tag(livestock.SpeciesCattle, "UK100002400017")) {
			t.Errorf("LookUpRegistration read the issued cattle tag as %+v", l.Tag)
		}
		return err
	})
	b.Exec(t, "UPDATE animals SET identifier = 'UK0100001' WHERE identifier = $1", "UK0100001 00001")
	if _, err := s.Animal(ctx(t), "UK0100001"); err == nil || livestock.IsNotFound(err) {
		t.Errorf("Animal with an identifier that is no tag stored: %v, want an error", err)
	}

	for _, bad := range []struct{ what, stmt string }{
		{"a tag that is not a sheep tag", "UPDATE movement_devices SET identifier = 'UK100002 00017' WHERE movement_id = $1"},
		{"an RFID that is not one", "UPDATE movement_devices SET rfid = '0' WHERE movement_id = $1"},
		{"a batch number that is not one", "UPDATE movement_batches SET batch_number = 'UK0100001' WHERE movement_id = $1"},
	} {
		id := addMovement(t, s, sheep)
		b.Exec(t, bad.stmt, id)
		if _, err := s.Movement(ctx(t), id); err == nil || livestock.IsNotFound(err) {
			t.Errorf("Movement with %s stored: %v, want an error", bad.what, err)
		}
	}
}
