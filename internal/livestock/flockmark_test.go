package livestock

import "testing"

// TestFlockMark: a mark is exactly 6 digits, and every tag and batch
// number gives the mark it was issued under.
func TestFlockMark(t *testing.T) {
	t.Parallel()
	if m, err := ParseFlockMark("130181"); err != nil || m.String() != "130181" {
		t.Errorf("ParseFlockMark(130181) = %q, %v", m, err)
	}
	for _, bad := range []string{"", "13018", "1301811", "13018a", "UK130181", " 30181", "１30181"} {
		if m, err := ParseFlockMark(bad); err == nil {
			t.Errorf("ParseFlockMark(%q) = %q; want it refused", bad, m)
		}
	}
	want := MustFlockMark("130181")
	sheep, err := ParseSheepTag("UK0130181 00001")
	if err != nil {
		t.Fatal(err)
	}
	goat, err := ParseGoatTag("UK0130181 00002")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]FlockMark{
		"sheep tag":     sheep.FlockMark(),
		"goat tag":      goat.FlockMark(),
		"sheep as Tag":  MustTag(SpeciesSheep, sheep.String()).Mark(),
		"goat as Tag":   MustTag(SpeciesGoats, goat.String()).Mark(),
		"cattle tag":    MustCattleTag("130181", 1).HerdMark(),
		"cattle as Tag": MustCattleTag("130181", 1).Tag().Mark(),
		"batch number":  mustBatchNumber(t, "UK130181"),
		"slaughter tag": mustSlaughterMark(t, "UK130181"),
	} {
		if got != want {
			t.Errorf("%s: mark %q, want %q", name, got, want)
		}
	}
	unknown, _ := ParseBatchNumber("unknown")
	for name, m := range map[string]FlockMark{"unknown batch": unknown.Mark(), "zero batch": (BatchNumber{}).Mark(),
		"zero tag": (Tag{}).Mark(), "zero cattle tag": (CattleTag{}).HerdMark()} {
		if !m.IsZero() {
			t.Errorf("%s: mark %q, want none", name, m)
		}
	}
}

func mustBatchNumber(t *testing.T, s string) FlockMark {
	n, err := ParseBatchNumber(s)
	if err != nil {
		t.Fatal(err)
	}
	return n.Mark()
}

func mustSlaughterMark(t *testing.T, s string) FlockMark {
	st, err := ParseSlaughterTag(s)
	if err != nil {
		t.Fatal(err)
	}
	return st.FlockMark()
}
