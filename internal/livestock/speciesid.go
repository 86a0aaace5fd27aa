package livestock

// The live movements interface names a species by a number as well
// (speciesId: ApprovedMovements/ByTransferDateRange, the species of an
// ApprovedMovement). Its definition lists no values, so Drover numbers
// the species of the movements interface as it orders them: Sheep 1,
// Goats 2, Deer 3.

// ID is the species' number in the movements interface, or 0 for a
// species that interface does not carry.
func (sp Species) ID() int {
	if sp.MovementName() == "" {
		return 0
	}
	return int(sp)
}

// MovementSpeciesByID is the movements species numbered id, or false.
func MovementSpeciesByID(id int64) (Species, bool) {
	for sp := SpeciesSheep; sp <= SpeciesBuffalo; sp++ {
		if sp.MovementName() != "" && int64(sp.ID()) == id {
			return sp, true
		}
	}
	return 0, false
}
