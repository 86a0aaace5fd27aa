package main

import (
	"testing"
	"time"
)

// TestGenerate: the synthetic registry has the movements asked for, in id
// order, each between two holdings in the five years; every tagged
// animal's movements join end to end; most movements touch a market.
func TestGenerate(t *testing.T) {
	s := shape{Holdings: 5000, Movements: 20000}
	var n, viaMarket int
	at := map[string]int{} // a tagged animal's holding after its last standing movement
	generate(s, func(r row) {
		n++
		if r.ID != int64(n) || r.Source == r.Destination || r.Transfer.Before(firstDay) || r.Transfer.After(lastDay) {
			t.Fatalf("movement %d: %+v", n, r)
		}
		if s.isMarket(r.Source) || s.isMarket(r.Destination) {
			viaMarket++
		}
		for _, d := range r.Devices {
			if h, ok := at[d.Tag]; ok && h != d.Prior {
				t.Fatalf("movement %d: %s leaves %d, but was on %d", r.ID, d.Tag, d.Prior, h)
			}
			if r.State == "Completed" || r.State == "Accepted" {
				at[d.Tag] = r.Destination
			}
		}
	}, func(a animal) {
		if h, ok := at[a.Tag]; ok && h != a.Holding {
			t.Fatalf("%s is on %d, but its movements left it on %d", a.Tag, a.Holding, h)
		}
		if a.Since.Before(a.Born) || a.Since.After(lastDay.Add(24*time.Hour)) {
			t.Fatalf("%s: since %s, born %s", a.Tag, a.Since, a.Born)
		}
	})
	if n != s.Movements {
		t.Fatalf("%d movements, want %d", n, s.Movements)
	}
	if share := float64(viaMarket) / float64(n); share < 0.5 {
		t.Errorf("%.0f%% of movements touch a market, want most", 100*share)
	}
}
