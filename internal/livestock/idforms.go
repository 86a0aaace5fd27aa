package livestock

// IdentifierForms are the printed forms under which the register may hold
// the animal or batch s names: s itself first, then s read as a sheep,
// goat or cattle tag, as an RFID (its printed tag), and as a batch number,
// each once. A reader may so name an animal as a movement may: compact or
// spaced, a goat's tag in its own form, or by its RFID.
func IdentifierForms(s string) []string {
	forms := []string{s}
	add := func(f string) {
		for _, g := range forms {
			if g == f {
				return
			}
		}
		forms = append(forms, f)
	}
	for _, sp := range []Species{SpeciesSheep, SpeciesGoats, SpeciesCattle} {
		if t, err := ParseTag(sp, s); err == nil {
			add(t.String())
		}
	}
	if r, err := ParseRFID(s); err == nil {
		if p, ok := r.Printed(); ok {
			for _, sp := range []Species{SpeciesSheep, SpeciesGoats} {
				if t, err := ParseTag(sp, p); err == nil {
					add(t.String())
				}
			}
		}
	}
	if n, err := ParseBatchNumber(s); err == nil {
		add(n.String())
	}
	return forms
}
