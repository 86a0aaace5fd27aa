package movements

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// decoded is a transfer (or a correction) read from its payload.
type decoded struct {
	t      livestock.Transfer
	model  transferModel      // the payload in the live shape, normalised, for storing
	at     livestock.DateTime // transferDate as given
	target int64              // the request a correction names (0: none)
	named  string             // the member that named it
}

// decodeTransfer reads a transfer (or correction) payload, in the live
// shape or Drover's earlier one: every identifier is parsed, tags are
// normalised to their printed form with the RFID filled in, dates become
// date-times, flags objects, and the normalised payload is returned for
// storing. Every format problem is reported, each at its JSON pointer.
func (v *vocab) decodeTransfer(content []byte) (decoded, error) {
	var in transferIn
	if err := decodeStrict(content, &in); err != nil {
		return decoded{}, err
	}
	var d decoded
	var errs fieldErrs
	var err error
	t, m := &d.t, &d.model
	if d.at, t.TransferDate, err = livestock.ParseMovementTime(in.TransferDate); err != nil {
		errs.add("/content/transferDate", err)
	}
	m.TransferDate = d.at.String()
	if t.Species, err = livestock.ParseMovementSpecies(deref(in.Species)); err != nil {
		errs.add("/content/species", err)
	}
	m.Species = deref(in.Species)
	if t.UserHolding, err = livestock.ParseHoldingRef(in.UserHolding, true); err != nil {
		errs.add("/content/userHolding", err)
	}
	if t.Source, err = livestock.ParseCPH(in.SourceHolding); err != nil {
		errs.add("/content/sourceHolding", err)
	}
	if t.Destination, err = livestock.ParseHoldingRef(in.DestinationHolding, true); err != nil {
		errs.add("/content/destinationHolding", err)
	}
	m.UserHolding, m.SourceHolding, m.DestinationHolding = in.UserHolding, in.SourceHolding, in.DestinationHolding
	if in.SaleDate != nil {
		at, day, err := livestock.ParseMovementTime(*in.SaleDate)
		if err != nil {
			errs.add("/content/saleDate", err)
		}
		t.SaleDate, m.SaleDate = day, ptr(at.String())
	}
	readTrackingID(&in.TrackingID, &errs)
	m.SaleID, m.Haulier, m.VehicleReg, m.TrackingID = in.SaleID, in.Haulier, in.VehicleReg, in.TrackingID
	t.SaleID = deref(in.SaleID)
	d.target, d.named = target(&errs, "/content/", member{"requestToBeUndone_ID", in.RequestToBeUndone}, member{"requestToBeCorrected_ID", in.RequestToBeCorrected})
	if d.named != "" {
		m.RequestToBeUndone = &d.target
	}
	t.AnimalCount, m.AnimalCount = in.AnimalCount, in.AnimalCount
	m.ProcessingFlags, t.Flags = v.readFlags(in.ProcessingFlags, "/content/processingFlags", &errs)
	m.MovementGroups = make([]groupModel, len(in.MovementGroups))
	for g := range in.MovementGroups {
		t.Groups = append(t.Groups, v.readGroup(t.Species, &in.MovementGroups[g], &m.MovementGroups[g], fmt.Sprintf("/content/movementGroups/%d", g), &errs))
	}
	if m.MovementDocument = in.MovementDocument; m.MovementDocument != nil {
		if t.Species == livestock.SpeciesCattle {
			errs.bad(livestock.CodeNotForCattle, "/content/movementDocument", "", "a movement of cattle has no movement document (the live rule)")
		} else {
			t.DocumentTotals = v.readDocument(t.Species, m.MovementDocument, &errs)
		}
	}
	if t.Species == livestock.SpeciesCattle && len(in.DeviceApplication) > 0 && string(in.DeviceApplication) != "null" {
		errs.bad(livestock.CodeNotForCattle, "/content/deviceApplication", "", "cattle are registered through /v1/animals, not with their first movement (the live rule)")
	} else {
		m.DeviceApplication = v.readDeviceApplication(t.Species, in.DeviceApplication, &errs)
	}
	return d, errs.err()
}

// member is a JSON member naming a request, by one of its names.
type member struct {
	name string
	id   *int64
}

// target reads the request a payload names, by its live name or an
// alias: given under two names, they must agree.
func target(errs *fieldErrs, at string, names ...member) (int64, string) {
	var id int64
	var named string
	for _, n := range names {
		switch {
		case n.id == nil:
		case named == "":
			id, named = *n.id, n.name
		case *n.id != id:
			errs.bad(livestock.CodeSchema, at+n.name, fmt.Sprint(*n.id),
				fmt.Sprintf("%s names request %d but %s names %d: give one of them", n.name, *n.id, named, id))
		}
	}
	return id, named
}

// readGroup reads one movement group into the rules' form and its
// normalised wire form.
func (v *vocab) readGroup(species livestock.Species, in *groupIn, out *groupModel, at string, errs *fieldErrs) livestock.MovementGroup {
	out.FromSubLocation, out.ToSubLocation, out.VendorHolding = in.FromSubLocation, in.ToSubLocation, in.VendorHolding
	mg := livestock.MovementGroup{FromSubLocation: deref(in.FromSubLocation), ToSubLocation: deref(in.ToSubLocation), VendorHolding: deref(in.VendorHolding)}
	for i, b := range in.Batches {
		mg.Batches = append(mg.Batches, v.readBatch(species, &b, fmt.Sprintf("%s/batches/%d", at, i), errs))
		out.Batches = append(out.Batches, b)
	}
	for i := range in.Devices {
		d := in.Devices[i]
		if dev, ok := readDevice(species, &d, fmt.Sprintf("%s/devices/%d", at, i), errs); ok {
			mg.Devices = append(mg.Devices, dev)
		}
		out.Devices = append(out.Devices, d)
	}
	for i := range in.DevicesWithDetail {
		d, dev, ok := v.readDetail(species, &in.DevicesWithDetail[i], fmt.Sprintf("%s/devicesWithDetail/%d", at, i), errs)
		if ok {
			mg.Devices = append(mg.Devices, dev)
			mg.Detailed++
		}
		out.DevicesWithDetail = append(out.DevicesWithDetail, d)
	}
	return mg
}

// readBatch reads a batch. Sheep and goat batches name their flock; a
// deer batch may give its total alone.
func (v *vocab) readBatch(species livestock.Species, b *batchModel, at string, errs *fieldErrs) livestock.BatchLine {
	line := livestock.BatchLine{Total: b.AnimalTotal}
	switch {
	case species == livestock.SpeciesCattle:
		errs.bad(livestock.CodeNotForCattle, at, "", "cattle move by their ear tags, each in devices: a bovine is never moved in a batch")
		return line
	case b.BatchNumber != nil && *b.BatchNumber != "":
		n, err := livestock.ParseBatchNumber(*b.BatchNumber)
		if err != nil {
			errs.add(at+"/batchNumber", err)
		}
		line.Number, b.BatchNumber = n, ptr(n.String())
	case species == livestock.SpeciesDeer || species == 0:
		b.BatchNumber = nil
	default:
		errs.bad(livestock.CodeMissing, at+"/batchNumber", "", "a batch of sheep or goats needs its batchNumber; only a deer batch may give animalTotal alone")
	}
	if b.StockType != nil {
		fits, ok := v.stockTypes[*b.StockType]
		if !ok || (fits != "" && species != 0 && fits != species.MovementName()) {
			errs.bad(livestock.CodeBadEnum, at+"/stockType", *b.StockType, "not a stock type of "+species.MovementName()+" (see /v1/StandingData/stockType)")
		}
	}
	if b.IDMark != nil && len([]rune(*b.IDMark)) > 50 {
		errs.bad(livestock.CodeBadLength, at+"/idMark", *b.IDMark, "at most 50 characters")
	}
	return line
}

// readDevice reads a device named at pointer at, reporting a problem at
// the member that holds it: the rfid when that is what does not read,
// else the tagNumber (also for a device that names nothing).
func readDevice(species livestock.Species, d *deviceModel, at string, errs *fieldErrs) (livestock.Device, bool) {
	dev, member, err := normaliseDevice(species, d)
	if err != nil {
		errs.add(at+"/"+member, err)
		return dev, false
	}
	return dev, true
}

// normaliseDevice reads a device by its tag number or, when that is
// absent, its RFID (hex, decimal or printed), rewrites both in their
// normal forms and checks that they name the same tag. A deer, which
// wears no tag Drover reads, may be named by its freezebrand alone. On an
// error, member is the device's member at fault.
func normaliseDevice(species livestock.Species, d *deviceModel) (dev livestock.Device, member string, err error) {
	tagText := strings.TrimSpace(deref(d.TagNumber))
	var rfid livestock.RFID
	if d.RFID != nil && *d.RFID != "" && species == livestock.SpeciesCattle {
		return livestock.Device{}, "rfid", livestock.Invalid("", livestock.FieldError{Code: livestock.CodeNotForCattle,
			Message: "a bovine is named by its ear tag's tagNumber: UK cattle tags carry no RFID this interface reads", Value: *d.RFID})
	}
	if d.RFID != nil && *d.RFID != "" {
		r, err := livestock.ParseRFID(*d.RFID)
		if err != nil {
			return livestock.Device{}, "rfid", err
		}
		rfid = r
		if tagText == "" {
			printed, ok := r.Printed()
			if !ok {
				return livestock.Device{}, "rfid", livestock.Invalid("", livestock.FieldError{Code: livestock.CodeBadFormat,
					Message: "the rfid is not of a UK sheep or goat tag", Value: *d.RFID})
			}
			tagText = printed
		}
	}
	if tagText == "" {
		fb := strings.TrimSpace(deref(d.Freezebrand))
		switch {
		case fb != "" && species == livestock.SpeciesDeer:
			d.Freezebrand = &fb
			return livestock.Device{Freezebrand: fb}, "", nil
		case fb != "":
			return livestock.Device{}, "tagNumber", livestock.Invalid("", livestock.FieldError{Code: livestock.CodeMissing,
				Message: "a sheep or goat is named by its tagNumber or rfid; a freezebrand alone names only a deer"})
		}
		return livestock.Device{}, "tagNumber", livestock.Invalid("", livestock.FieldError{Code: livestock.CodeMissing,
			Message: "a device needs a tagNumber, an rfid or, for a deer, a freezebrand"})
	}
	tag, err := livestock.ParseTag(species, tagText)
	if err != nil {
		return livestock.Device{}, "tagNumber", err
	}
	fromTag, ok := tag.RFID()
	if ok && !rfid.IsZero() && rfid != fromTag {
		return livestock.Device{}, "rfid", livestock.Invalid("", livestock.FieldError{Code: livestock.CodeBadFormat,
			Message: fmt.Sprintf("the rfid %s is not that of tag %s (%s)", rfid, tag, fromTag), Value: *d.RFID})
	}
	d.TagNumber = ptr(tag.String())
	if ok {
		d.RFID = ptr(fromTag.Decimal())
	}
	return livestock.Device{Tag: tag, RFID: fromTag, Freezebrand: deref(d.Freezebrand)}, "", nil
}

// normalised encodes a payload after decoding rewrote its identifiers.
func normalised(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("movements: encode a decoded payload: %v", err)) // cannot happen: plain structs
	}
	return b
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ptr[T any](v T) *T { return &v }
