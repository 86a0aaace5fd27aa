package livestock

import (
	"fmt"
	"strings"
)

// AnimalRecord is what the registry knows of one tagged animal.
type AnimalRecord struct {
	Species    Species
	Holding    CPH  // where it is now
	OnSince    Date // since when
	Born       Date
	State      AnimalState
	Restricted bool // registered after the statutory limit: no passport, it may not leave its holding
	Sex        Sex
	InTransit  bool // in another movement that awaits review
}

// TransferFacts are the registry's records a transfer is checked against,
// gathered by the caller (inside the transaction that applies it).
type TransferFacts struct {
	Today        Date
	Source       *Holding                // nil when not registered
	Destination  *Holding                // nil when not registered
	Animals      map[string]AnimalRecord // by printed tag; absent: no such animal
	FlockSpecies map[FlockMark]Species   // for the batches' flock marks that are known
	KnownFlag    func(code string) bool  // processingFlags codes in standing data
	ExemptFlag   func(code string) bool  // codes that exempt a move from standstill
	Arrivals     []Arrival               // arrivals on the source holding before the transfer date
}

// LateReportDays is the deadline for reporting a movement.
const LateReportDays = 3

// CheckTransfer applies the movement rules to t: every broken rule is an
// error (the request fails) and every breach that must not lose the trace
// — standstill, a late report — is a warning.
func CheckTransfer(t Transfer, f TransferFacts) (errs, warns []FieldError) {
	bad := func(code Code, at, value, format string, args ...any) {
		errs = append(errs, FieldError{Code: code, Source: at, Value: value, Message: fmt.Sprintf(format, args...)})
	}
	if t.TransferDate.After(f.Today) {
		bad(CodeDateFuture, "/content/transferDate", t.TransferDate.String(), "the transfer date is after today (%s)", f.Today)
	}
	if t.SaleDate.After(f.Today) {
		bad(CodeDateFuture, "/content/saleDate", t.SaleDate.String(), "the sale date is after today (%s)", f.Today)
	}
	switch {
	case f.Source == nil:
		bad(CodeHoldingUnknown, "/content/sourceHolding", t.Source.String(), "no holding %s is registered", t.Source)
	case f.Source.Type == HoldingAbattoir:
		bad(CodeHoldingType, "/content/sourceHolding", t.Source.String(), "animals cannot leave an abattoir")
	}
	switch {
	case f.Destination == nil:
		bad(CodeHoldingUnknown, "/content/destinationHolding", t.Destination.String(), "no holding %s is registered", t.Destination)
	case !t.Destination.MHS.IsZero() && f.Destination.Type != HoldingAbattoir:
		bad(CodeHoldingType, "/content/destinationHolding", t.Destination.String(), "an MHS may stand only for an abattoir")
	case f.Source != nil && f.Destination.CPH == f.Source.CPH:
		bad(CodeSameHolding, "/content/destinationHolding", t.Destination.String(), "the destination is the source holding")
	}
	if f.Source != nil && (f.Source.Type != HoldingSaleYard || t.UserHolding.CPH != t.Source) {
		errs = append(errs, saleFields(t)...)
	}
	errs = append(errs, CheckTransferForm(t, f.KnownFlag)...)

	seen := map[string]bool{}
	for _, d := range t.Devices() {
		tag, at := d.Value.Tag.String(), d.At+"/tagNumber"
		if d.Value.Tag.IsZero() || seen[tag] { // a deer by its freezebrand alone, whom the register does not keep; a repeat
			continue
		}
		seen[tag] = true
		a, ok := f.Animals[tag]
		switch {
		case !ok || a.Holding != t.Source:
			// One answer whether the tag is unregistered or on another
			// keeper's holding: which, and what that animal is, are that
			// keeper's business.
			bad(CodeDeviceNotOnSource, at, tag, "no animal wearing tag %s is on %s", tag, t.Source)
		case a.State != StateRegistered:
			bad(CodeDeviceDead, at, tag, "the animal is recorded %s", a.State)
		case a.Species != t.Species:
			bad(CodeDeviceSpecies, at, tag, "the animal is of species %s, not %s", a.Species.MovementName(), t.Species.MovementName())
		case a.InTransit:
			bad(CodeDeviceInTransit, at, tag, "the animal is in another movement that awaits review")
		case a.Restricted:
			bad(CodeDeviceRestricted, at, tag, "the animal may not leave its holding: it was registered after the statutory limit and has no passport")
		case a.OnSince.After(t.TransferDate):
			bad(CodeDeviceNotOnSource, at, tag, "the animal is not on %s on %s", t.Source, t.TransferDate)
		case !a.Born.IsZero() && t.TransferDate.Before(a.Born):
			bad(CodeDateBeforeBirth, "/content/transferDate", t.TransferDate.String(), "tag %s was born on %s, after the transfer date", tag, a.Born)
		}
	}
	for _, b := range t.Batches() {
		n := b.Value.Number
		mark := n.Mark()
		if mark.IsZero() { // unknown, or a deer batch that gives only its total
			continue
		}
		if sp, ok := f.FlockSpecies[mark]; ok && sp != t.Species {
			bad(CodeBatchSpecies, b.At+"/batchNumber", n.String(), "flock %s is of species %s, not %s", mark, sp.MovementName(), t.Species.MovementName())
		}
	}
	if len(errs) > 0 {
		return errs, nil
	}
	return nil, transferWarnings(t, f)
}

// CheckTransferForm applies the rules a transfer keeps or breaks by itself,
// whatever the registry holds: its processingFlags are exemption codes
// (knownFlag says which; nil knows them all), no tag or freezebrand is
// named twice, and animalCount and the movement document's totals count
// the devices and batch animals. The live service answers these at once
// (400); CheckTransfer applies them again with the rest.
func CheckTransferForm(t Transfer, knownFlag func(code string) bool) (errs []FieldError) {
	bad := func(code Code, at, value, format string, args ...any) {
		errs = append(errs, FieldError{Code: code, Source: at, Value: value, Message: fmt.Sprintf(format, args...)})
	}
	for _, flag := range t.Flags {
		if knownFlag != nil && !knownFlag(flag) {
			bad(CodeFlagUnknown, "/content/processingFlags", flag, "%q is not an exemption code (see /v1/StandingData/processingFlags)", flag)
		}
	}
	count := 0
	seen := map[string]bool{}
	for _, d := range t.Devices() {
		count++
		key, at, what := d.Value.Tag.String(), d.At+"/tagNumber", "tag"
		if d.Value.Tag.IsZero() {
			key, at, what = "freezebrand:"+d.Value.Freezebrand, d.At+"/freezebrand", "freezebrand"
		}
		if seen[key] {
			name := strings.TrimPrefix(key, "freezebrand:")
			bad(CodeDeviceRepeated, at, name, "%s %s appears more than once", what, name)
		}
		seen[key] = true
	}
	for _, b := range t.Batches() {
		count += b.Value.Total
	}
	noAnimals := len(t.Devices()) == 0 && len(t.Batches()) == 0
	if noAnimals {
		bad(CodeMissing, "/content/movementGroups", "", "the transfer names no animals: give devices, devicesWithDetail or batches")
	} else if count != t.AnimalCount {
		bad(CodeAnimalCount, "/content/animalCount", itoa(t.AnimalCount),
			"animalCount is %d but the devices and batch totals add up to %d", t.AnimalCount, count)
	}
	for _, total := range t.DocumentTotals {
		if total.Value != count && !noAnimals {
			bad(CodeAnimalCount, total.At, itoa(total.Value),
				"the movement document counts %d animals but the devices and batch totals add up to %d", total.Value, count)
		}
	}
	return errs
}

func transferWarnings(t Transfer, f TransferFacts) (warns []FieldError) {
	d := Departure{Date: t.TransferDate, Species: t.Species, Flags: t.Flags, SourceType: f.Source.Type, DestinationType: f.Destination.Type}
	if w, breach := StandstillWarning(t.Source, d, f.Arrivals, f.ExemptFlag); breach {
		warns = append(warns, w)
	}
	if f.Today.After(t.TransferDate.AddDays(LateReportDays)) {
		warns = append(warns, FieldError{Code: CodeLateReport, Source: "/content/transferDate", Value: t.TransferDate.String(),
			Message: fmt.Sprintf("reported %d days after the move; movements are to be reported within %d days", f.Today.DaysSince(t.TransferDate), LateReportDays)})
	}
	return warns
}

// saleFields refuses the sale's details (saleDate, saleId, each group's
// vendorHolding) in a transfer that is not a sale yard recording a move off
// itself: the live definition allows them only there.
func saleFields(t Transfer) []FieldError {
	var errs []FieldError
	bad := func(at, value string) {
		errs = append(errs, FieldError{Code: CodeSaleOnly, Source: at, Value: value,
			Message: "only a sale yard recording a move off itself gives " + at[strings.LastIndex(at, "/")+1:]})
	}
	if !t.SaleDate.IsZero() {
		bad("/content/saleDate", t.SaleDate.String())
	}
	if t.SaleID != "" {
		bad("/content/saleId", t.SaleID)
	}
	for g, grp := range t.Groups {
		if grp.VendorHolding != "" {
			bad(pointer("movementGroups", g, "vendorHolding"), grp.VendorHolding)
		}
	}
	return errs
}
