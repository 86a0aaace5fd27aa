package movements

import (
	"github.com/drover-registry/drover/internal/livestock"
)

// A movement is final once both of its ends agree. Its reporter speaks for
// the end they act for; the other end's keeper reviews it: the destination
// accepts what arrived (an off-move), and the source's keeper confirms
// what left (an on-move reported by the destination). Until then its
// animals stay where they were, so that no keeper moves stock they do not
// answer for. Some ends need no one's review: an abattoir receiving, the
// reporter keeping the other end too, and the holdings whose departures
// others report by law (departuresReportedByOthers).

// departuresReportedByOthers reports whether animals leaving a holding of
// type t are reported by the keepers who receive them, with no consent of
// the holding's own: markets (sale yards), shows and collection centres,
// whose operators do not keep the animals that pass through.
func departuresReportedByOthers(t livestock.HoldingType) bool {
	switch t {
	case livestock.HoldingSaleYard, livestock.HoldingShowground, livestock.HoldingCollectionCentre:
		return true
	}
	return false
}

// reviewer is the holding whose keeper must review a movement from source
// to destination reported by submitter, or the zero CPH when it applies
// at once: the source, when the submitter does not act for it and its
// keeper must consent to the departure; else the destination, when the
// submitter does not act for it and it is not an abattoir.
func reviewer(submitter livestock.User, source, destination livestock.Holding) livestock.CPH {
	switch {
	case !submitter.CanActFor(source.CPH) && !departuresReportedByOthers(source.Type):
		return source.CPH
	case !submitter.CanActFor(destination.CPH) && destination.Type != livestock.HoldingAbattoir:
		return destination.CPH
	}
	return livestock.CPH{}
}

// awaitsSource reports whether a transfer reported by submitter will await
// the consent of its source's keeper (reviewer returns the source).
func awaitsSource(submitter livestock.User, f livestock.TransferFacts) bool {
	return f.Source != nil && f.Destination != nil && reviewer(submitter, *f.Source, *f.Destination) == f.Source.CPH
}

// blind is f with each tag of t taken to be a registered animal of t's
// species on the source and free to move, and with no arrivals on the
// source. A reporter who does not act for the source learns nothing from
// the outcome of their report about what the source holds or received:
// existing and absent tags end alike, and no standstill is reported. The
// source's keeper's review checks the animals and the standstill
// (sourceChecks).
func blind(f livestock.TransferFacts, t livestock.Transfer) livestock.TransferFacts {
	f.Arrivals = nil
	f.Animals = map[string]livestock.AnimalRecord{}
	for _, d := range t.Devices() {
		if !d.Value.Tag.IsZero() {
			f.Animals[d.Value.Tag.String()] = livestock.AnimalRecord{Species: t.Species, Holding: t.Source, State: livestock.StateRegistered}
		}
	}
	return f
}
