package livestock

import (
	"slices"
	"testing"
)

func TestCheckTransfer(t *testing.T) {
	t.Parallel()
	src, dst := MustCPH("01/100/0257"), MustCPH("01/100/0264")
	tag := func(s string) Tag {
		tg, err := ParseTag(SpeciesSheep, s)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	since := mustDate(t, "2024-01-01")
	base := func() (Transfer, TransferFacts) {
		tr := Transfer{
			TransferDate: mustDate(t, "2026-11-20"), Species: SpeciesSheep,
			UserHolding: HoldingRef{CPH: src}, Source: src, Destination: HoldingRef{CPH: dst}, AnimalCount: 12,
			Groups: []MovementGroup{{
				Devices: []Device{{Tag: tag("UK0130181 00001")}, {Tag: tag("UK0130181 00002")}},
				Batches: []BatchLine{{Number: mustBatch(t, "UK130181"), Total: 10}},
			}},
		}
		f := TransferFacts{
			Today:       mustDate(t, "2026-11-21"),
			Source:      &Holding{CPH: src, Type: HoldingProducer},
			Destination: &Holding{CPH: dst, Type: HoldingProducer},
			Animals: map[string]AnimalRecord{
				"UK0130181 00001": {Species: SpeciesSheep, Holding: src, OnSince: since, Born: since, State: StateRegistered},
				"UK0130181 00002": {Species: SpeciesSheep, Holding: src, OnSince: since, Born: since, State: StateRegistered},
			},
			FlockSpecies: map[FlockMark]Species{MustFlockMark("130181"): SpeciesSheep, MustFlockMark("130183"): SpeciesGoats},
			KnownFlag:    func(c string) bool { return c == "SLAU" },
			ExemptFlag:   func(c string) bool { return c == "SLAU" },
		}
		return tr, f
	}
	for _, tc := range []struct {
		name   string
		change func(*Transfer, *TransferFacts)
		errs   []Code
		warns  []Code
	}{
		{"valid", func(*Transfer, *TransferFacts) {}, nil, nil},
		{"future date", func(tr *Transfer, f *TransferFacts) { tr.TransferDate = mustDate(t, "2026-11-22") }, []Code{CodeDateFuture}, nil},
		{"sale tomorrow", func(tr *Transfer, f *TransferFacts) {
			f.Source.Type, tr.SaleDate = HoldingSaleYard, mustDate(t, "2026-11-22")
		}, []Code{CodeDateFuture}, nil},
		{"sale yesterday", func(tr *Transfer, f *TransferFacts) {
			f.Source.Type, tr.SaleDate = HoldingSaleYard, mustDate(t, "2026-11-20")
		}, nil, nil},
		{"a sale yard's sale details", func(tr *Transfer, f *TransferFacts) {
			f.Source.Type, tr.SaleID, tr.Groups[0].VendorHolding = HoldingSaleYard, "S-1", "01/100/0257"
		}, nil, nil},
		{"a farm's sale details", func(tr *Transfer, f *TransferFacts) {
			tr.SaleDate, tr.SaleID, tr.Groups[0].VendorHolding = mustDate(t, "2026-11-20"), "S-1", "01/100/0257"
		}, []Code{CodeSaleOnly, CodeSaleOnly, CodeSaleOnly}, nil},
		{"sale details on a move onto the buyer's farm", func(tr *Transfer, f *TransferFacts) {
			f.Source.Type, tr.UserHolding, tr.SaleID = HoldingSaleYard, tr.Destination, "S-1"
		}, []Code{CodeSaleOnly}, nil},
		{"unknown source", func(tr *Transfer, f *TransferFacts) { f.Source = nil }, []Code{CodeHoldingUnknown}, nil},
		{"unknown destination", func(tr *Transfer, f *TransferFacts) { f.Destination = nil }, []Code{CodeHoldingUnknown}, nil},
		{"from an abattoir", func(tr *Transfer, f *TransferFacts) { f.Source.Type = HoldingAbattoir }, []Code{CodeHoldingType}, nil},
		{"MHS of a farm", func(tr *Transfer, f *TransferFacts) { tr.Destination = HoldingRef{MHS: MHS{"0036"}} }, []Code{CodeHoldingType}, nil},
		{"same holding", func(tr *Transfer, f *TransferFacts) { f.Destination.CPH = src }, []Code{CodeSameHolding}, nil},
		{"unknown flag", func(tr *Transfer, f *TransferFacts) { tr.Flags = []string{"NOPE"} }, []Code{CodeFlagUnknown}, nil},
		{"deer by freezebrand and a batch without a number", func(tr *Transfer, f *TransferFacts) {
			tr.Species = SpeciesDeer
			tr.AnimalCount = 7
			tr.Groups = []MovementGroup{{Devices: []Device{{Freezebrand: "A12"}, {Freezebrand: "A13"}}, Batches: []BatchLine{{Total: 5}}}}
		}, nil, nil},
		{"a freezebrand twice", func(tr *Transfer, f *TransferFacts) {
			tr.Species = SpeciesDeer
			tr.AnimalCount = 2
			tr.Groups = []MovementGroup{{Devices: []Device{{Freezebrand: "A12"}, {Freezebrand: "A12"}}}}
		}, []Code{CodeDeviceRepeated}, nil},
		{"a batch without a number counts", func(tr *Transfer, f *TransferFacts) {
			tr.Species = SpeciesDeer
			tr.Groups = []MovementGroup{{Batches: []BatchLine{{Total: 11}}}}
		}, []Code{CodeAnimalCount}, nil},
		{"no animals at all: that rule alone, not the counts", func(tr *Transfer, f *TransferFacts) {
			tr.Groups = []MovementGroup{{}}
			tr.DocumentTotals = []Located[int]{{12, "/content/movementDocument/departureDetail/animalTotal"}}
		}, []Code{CodeMissing}, nil},
		{"the document's totals agree", func(tr *Transfer, f *TransferFacts) {
			tr.DocumentTotals = []Located[int]{{12, "/content/movementDocument/departureDetail/animalTotal"}}
		}, nil, nil},
		{"the document's totals disagree", func(tr *Transfer, f *TransferFacts) {
			tr.DocumentTotals = []Located[int]{{12, "/a"}, {11, "/content/movementDocument/destinationDetail/totalAnimalsReceived"}}
		}, []Code{CodeAnimalCount}, nil},
		// An unknown tag and another keeper's animal get one answer.
		{"unknown tag", func(tr *Transfer, f *TransferFacts) { delete(f.Animals, "UK0130181 00002") }, []Code{CodeDeviceNotOnSource}, nil},
		{"repeated tag", func(tr *Transfer, f *TransferFacts) {
			tr.Groups[0].Devices[1] = tr.Groups[0].Devices[0]
		}, []Code{CodeDeviceRepeated}, nil},
		{"dead animal", func(tr *Transfer, f *TransferFacts) {
			a := f.Animals["UK0130181 00001"]
			a.State = StateDead
			f.Animals["UK0130181 00001"] = a
		}, []Code{CodeDeviceDead}, nil},
		{"goat in a sheep move", func(tr *Transfer, f *TransferFacts) {
			a := f.Animals["UK0130181 00001"]
			a.Species = SpeciesGoats
			f.Animals["UK0130181 00001"] = a
		}, []Code{CodeDeviceSpecies}, nil},
		{"in transit", func(tr *Transfer, f *TransferFacts) {
			a := f.Animals["UK0130181 00001"]
			a.InTransit = true
			f.Animals["UK0130181 00001"] = a
		}, []Code{CodeDeviceInTransit}, nil},
		{"elsewhere", func(tr *Transfer, f *TransferFacts) {
			a := f.Animals["UK0130181 00001"]
			a.Holding = dst
			f.Animals["UK0130181 00001"] = a
		}, []Code{CodeDeviceNotOnSource}, nil},
		{"elsewhere, dead, a goat and in transit: nothing of what it is", func(tr *Transfer, f *TransferFacts) {
			a := f.Animals["UK0130181 00001"]
			a.Holding, a.State, a.Species, a.InTransit, a.Restricted = dst, StateDead, SpeciesGoats, true, true
			f.Animals["UK0130181 00001"] = a
		}, []Code{CodeDeviceNotOnSource}, nil},
		{"arrived after the move", func(tr *Transfer, f *TransferFacts) {
			a := f.Animals["UK0130181 00001"]
			a.OnSince = mustDate(t, "2026-11-21")
			f.Animals["UK0130181 00001"] = a
		}, []Code{CodeDeviceNotOnSource}, nil},
		{"born after the move", func(tr *Transfer, f *TransferFacts) {
			a := f.Animals["UK0130181 00001"]
			a.Born, a.OnSince = mustDate(t, "2026-11-20"), mustDate(t, "2026-11-19")
			tr.TransferDate = mustDate(t, "2026-11-19")
			a.Born = mustDate(t, "2026-11-20")
			f.Animals["UK0130181 00001"] = a
		}, []Code{CodeDateBeforeBirth}, nil},
		{"count differs", func(tr *Transfer, f *TransferFacts) { tr.AnimalCount = 11 }, []Code{CodeAnimalCount}, nil},
		{"goat batch in a sheep move", func(tr *Transfer, f *TransferFacts) { tr.Groups[0].Batches[0].Number = mustBatch(t, "UK130183") }, []Code{CodeBatchSpecies}, nil},
		{"unknown batch flock is accepted", func(tr *Transfer, f *TransferFacts) { tr.Groups[0].Batches[0].Number = mustBatch(t, "UK999999") }, nil, nil},
		{"standstill", func(tr *Transfer, f *TransferFacts) {
			f.Arrivals = []Arrival{{Date: mustDate(t, "2026-11-17"), Species: SpeciesSheep}}
		}, nil, []Code{CodeStandstill}},
		{"standstill exempted", func(tr *Transfer, f *TransferFacts) {
			f.Arrivals = []Arrival{{Date: mustDate(t, "2026-11-17"), Species: SpeciesSheep}}
			tr.Flags = []string{"SLAU"}
		}, nil, nil},
		{"late report", func(tr *Transfer, f *TransferFacts) { f.Today = mustDate(t, "2026-11-24") }, nil, []Code{CodeLateReport}},
	} {
		tr, f := base()
		tc.change(&tr, &f)
		errs, warns := CheckTransfer(tr, f)
		if tc.name == "unknown tag" {
			// Another keeper's animal under that tag gets the very same error.
			tr2, f2 := base()
			a := f2.Animals["UK0130181 00002"]
			a.Holding, a.Species = dst, SpeciesGoats
			f2.Animals["UK0130181 00002"] = a
			if other, _ := CheckTransfer(tr2, f2); !slices.Equal(other, errs) {
				t.Errorf("another keeper's animal: %v, want what an unknown tag gets: %v", other, errs)
			}
		}
		if got := codesOf(errs); !slices.Equal(got, tc.errs) {
			t.Errorf("%s: errors %v, want %v (%v)", tc.name, got, tc.errs, errs)
		}
		if got := codesOf(warns); !slices.Equal(got, tc.warns) {
			t.Errorf("%s: warnings %v, want %v (%v)", tc.name, got, tc.warns, warns)
		}
		for _, e := range append(errs, warns...) {
			if e.Source == "" || e.Message == "" {
				t.Errorf("%s: %v names no field or has no message", tc.name, e)
			}
		}
	}
}

func codesOf(errs []FieldError) []Code {
	var c []Code
	for _, e := range errs {
		c = append(c, e.Code)
	}
	return c
}

func mustBatch(t *testing.T, s string) BatchNumber {
	t.Helper()
	b, err := ParseBatchNumber(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
