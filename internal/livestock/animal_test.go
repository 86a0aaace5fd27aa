package livestock

import "testing"

// TestSexAndStateSpellings: each value reads back from its spelling, and
// no other spelling (another case, a code, nothing) is one.
func TestSexAndStateSpellings(t *testing.T) {
	t.Parallel()
	for _, s := range []Sex{SexFemale, SexMale} {
		if got, err := ParseSex(s.String()); err != nil || got != s {
			t.Errorf("ParseSex(%q) = %v, %v; want %v", s.String(), got, err, s)
		}
	}
	for _, st := range []AnimalState{StateRegistered, StateDead, StateLost, StateStolen} {
		if got, err := ParseAnimalState(st.String()); err != nil || got != st {
			t.Errorf("ParseAnimalState(%q) = %v, %v; want %v", st.String(), got, err, st)
		}
	}
	for _, bad := range []string{"", "Female", "F", "M", "unknown"} {
		if s, err := ParseSex(bad); err == nil {
			t.Errorf("ParseSex(%q) = %v; want it refused", bad, s)
		}
	}
	for _, bad := range []string{"", "Registered", "alive", "dead "} {
		if st, err := ParseAnimalState(bad); err == nil {
			t.Errorf("ParseAnimalState(%q) = %v; want it refused", bad, st)
		}
	}
	if Sex(0).String() != "" || Sex(9).String() != "" || AnimalState(0).String() != "" || AnimalState(9).String() != "" {
		t.Error("a value that is none of the constants has a spelling")
	}
}
