package livestock

import "fmt"

// Sex is an animal's sex as the register holds it; the registration
// interface spells it "female" or "male". Like Species it is a small
// integer, so that no other spelling becomes one without ParseSex. The
// zero value is "not recorded".
type Sex uint8

const (
	SexFemale Sex = iota + 1
	SexMale
)

// String is the interface's spelling, "" for the zero value.
func (s Sex) String() string {
	switch s {
	case SexFemale:
		return "female"
	case SexMale:
		return "male"
	}
	return ""
}

// ParseSex reads "female" or "male", exactly as the interface spells them.
func ParseSex(s string) (Sex, error) {
	switch s {
	case "female":
		return SexFemale, nil
	case "male":
		return SexMale, nil
	}
	return 0, fmt.Errorf("%q is not a sex: give female or male", s)
}

// AnimalState is where an animal stands in the register: alive and
// registered, or recorded dead, lost or stolen. The zero value is "not
// recorded".
type AnimalState uint8

const (
	StateRegistered AnimalState = iota + 1
	StateDead
	StateLost
	StateStolen
)

var animalStates = [...]string{StateRegistered: "registered", StateDead: "dead", StateLost: "lost", StateStolen: "stolen"}

// String is the interface's spelling, "" for the zero value.
func (s AnimalState) String() string {
	if int(s) < len(animalStates) {
		return animalStates[s]
	}
	return ""
}

// ParseAnimalState reads a state as the interface spells it.
func ParseAnimalState(s string) (AnimalState, error) {
	for st, name := range animalStates {
		if name != "" && name == s {
			return AnimalState(st), nil
		}
	}
	return 0, fmt.Errorf("%q is not an animal's state: give registered, dead, lost or stolen", s)
}
