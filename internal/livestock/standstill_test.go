package livestock

import "testing"

func TestStandstill(t *testing.T) {
	t.Parallel()
	monday := mustDate(t, "2026-11-02")
	sheepIn := []Arrival{{Date: monday, Species: SpeciesSheep}}
	exempt := func(f string) bool { return f == "SLAU" || f == "ISOL" || f == "GATH" }
	off := func(date string) Departure {
		return Departure{Date: mustDate(t, date), Species: SpeciesSheep, SourceType: HoldingProducer, DestinationType: HoldingProducer}
	}
	for _, tc := range []struct {
		name     string
		d        Departure
		arrivals []Arrival
		breach   bool
	}{
		{"day before arrival", off("2026-11-01"), sheepIn, false},
		{"arrival day", off("2026-11-02"), sheepIn, true},
		{"day 1 (Tuesday)", off("2026-11-03"), sheepIn, true},
		{"day 6 (Sunday)", off("2026-11-08"), sheepIn, true},
		{"following Monday is free", off("2026-11-09"), sheepIn, false},
		{"no arrivals", off("2026-11-03"), nil, false},
		{"deer arrivals start none", off("2026-11-03"), []Arrival{{Date: monday, Species: SpeciesDeer}}, false},
		{"cattle arrivals stop sheep", off("2026-11-03"), []Arrival{{Date: monday, Species: SpeciesCattle}}, true},
		{"arrival into isolation starts none", off("2026-11-03"), []Arrival{{Date: monday, Species: SpeciesSheep, Flags: []string{"ISOL"}}}, false},
		{"unknown flag exempts nothing", func() Departure { d := off("2026-11-03"); d.Flags = []string{"ZZZZ"}; return d }(), sheepIn, true},
		{"direct to slaughter flag", func() Departure { d := off("2026-11-03"); d.Flags = []string{"SLAU"}; return d }(), sheepIn, false},
		{"to an abattoir", func() Departure { d := off("2026-11-03"); d.DestinationType = HoldingAbattoir; return d }(), sheepIn, false},
		{"to a sale yard", func() Departure { d := off("2026-11-03"); d.DestinationType = HoldingSaleYard; return d }(), sheepIn, false},
		{"to common land", func() Departure { d := off("2026-11-03"); d.DestinationType = HoldingCommonLand; return d }(), sheepIn, false},
		{"deer leave freely", func() Departure { d := off("2026-11-03"); d.Species = SpeciesDeer; return d }(), sheepIn, false},
	} {
		if _, got := Standstill(tc.d, tc.arrivals, exempt); got != tc.breach {
			t.Errorf("%s: breach = %v, want %v", tc.name, got, tc.breach)
		}
	}
}

func mustDate(t *testing.T, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
