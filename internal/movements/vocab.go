package movements

import (
	"strconv"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/standing"
)

// vocab is the standing data a movement's values are read against: the
// lists a live client names values from, with Drover's earlier codes as
// aliases of the live ones.
type vocab struct {
	flags       map[string]flagInfo // by name (code)
	flagNames   map[int]string      // name by processingFlagId
	breeds      map[livestock.Species]map[string]string
	stockTypes  map[string]string // code → the species it fits ("" for every species)
	docTypes    map[string]bool
	transporter map[string]bool   // transporterType codes and names
	fci         map[string]string // metFCIWithdrawalPeriod code → the code stored
	genders     map[string]bool
}

type flagInfo struct {
	id      int
	species string // the species it may be used for, comma separated
	exempt  bool   // exempts a move from standstill
}

func newVocab(lists *standing.Lists) (*vocab, error) {
	v := &vocab{flags: map[string]flagInfo{}, flagNames: map[int]string{}, breeds: map[livestock.Species]map[string]string{},
		stockTypes: map[string]string{}, docTypes: map[string]bool{}, transporter: map[string]bool{}, fci: map[string]string{}, genders: map[string]bool{}}
	read := func(name string, each func(standing.Entry)) error {
		entries, err := lists.List(name)
		for _, e := range entries {
			each(e)
		}
		return err
	}
	err := read("processingFlags", func(e standing.Entry) {
		id, _ := strconv.Atoi(e.Extra["processingFlagId"])
		v.flags[e.Code] = flagInfo{id: id, species: e.Extra["species"], exempt: e.Extra["exemptsStandstill"] == "true"}
		if id > 0 {
			v.flagNames[id] = e.Code
		}
	})
	for list, sp := range map[string]livestock.Species{"sheepBreeds": livestock.SpeciesSheep, "goatBreeds": livestock.SpeciesGoats} {
		v.breeds[sp] = map[string]string{}
		if err == nil {
			err = read(list, func(e standing.Entry) { v.breeds[sp][e.Code] = cmpOr(e.Extra["aliasOf"], e.Code) })
		}
	}
	for list, each := range map[string]func(standing.Entry){
		"stockType":    func(e standing.Entry) { v.stockTypes[e.Code] = e.Extra["species"] },
		"documentType": func(e standing.Entry) { v.docTypes[e.Code] = true },
		"transporterType": func(e standing.Entry) {
			v.transporter[e.Code], v.transporter[cmpOr(e.Extra["name"], e.Code)] = true, true
		},
		"metFCIWithdrawalPeriod": func(e standing.Entry) { v.fci[e.Code] = cmpOr(e.Extra["aliasOf"], e.Code) },
		"gender":                 func(e standing.Entry) { v.genders[e.Code] = true },
	} {
		if err == nil {
			err = read(list, each)
		}
	}
	return v, err
}

// knownFlag reports whether a flag may be used on a movement of species.
func (v *vocab) knownFlag(name string, species livestock.Species) bool {
	f, ok := v.flags[name]
	return ok && (f.species == "" || species == 0 || strings.Contains(","+f.species+",", ","+species.MovementName()+","))
}

// breed is the name a breed is stored under, and whether species has it.
// Deer have no breed list: any breed is taken as written.
func (v *vocab) breed(species livestock.Species, b string) (string, bool) {
	list, ok := v.breeds[species]
	if !ok {
		return b, true
	}
	name, ok := list[b]
	return name, ok
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
