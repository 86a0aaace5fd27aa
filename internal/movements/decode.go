package movements

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// decodeTransfer reads a transfer (or correction) payload: every
// identifier is parsed, tags are normalised to their printed form with
// the RFID filled in, and the normalised payload is returned for storing.
// Every format problem is reported, each at its JSON pointer.
func decodeTransfer(content []byte) (livestock.Transfer, transferContent, error) {
	var w transferContent
	if err := decodeStrict(content, &w); err != nil {
		return livestock.Transfer{}, w, err
	}
	var t livestock.Transfer
	var errs fieldErrs
	var err error
	if t.TransferDate, err = livestock.ParseRecordDate(w.TransferDate); err != nil {
		errs.add("/content/transferDate", err)
	}
	if t.Species, err = livestock.ParseMovementSpecies(w.Species); err != nil {
		errs.add("/content/species", err)
	}
	if t.UserHolding, err = livestock.ParseHoldingRef(w.UserHolding, true); err != nil {
		errs.add("/content/userHolding", err)
	}
	if t.Source, err = livestock.ParseCPH(w.SourceHolding); err != nil {
		errs.add("/content/sourceHolding", err)
	}
	if t.Destination, err = livestock.ParseHoldingRef(w.DestinationHolding, true); err != nil {
		errs.add("/content/destinationHolding", err)
	}
	if w.SaleDate != nil {
		if t.SaleDate, err = livestock.ParseRecordDate(*w.SaleDate); err != nil {
			errs.add("/content/saleDate", err)
		}
	}
	if w.TrackingID != nil {
		if _, err := livestock.ParseTrackingID(*w.TrackingID); err != nil {
			errs.add("/content/trackingId", err)
		}
	}
	t.AnimalCount = w.AnimalCount
	t.Flags = w.ProcessingFlags
	for g := range w.MovementGroups {
		grp := &w.MovementGroups[g]
		mg := livestock.MovementGroup{FromSubLocation: deref(grp.FromSubLocation), ToSubLocation: deref(grp.ToSubLocation), VendorHolding: deref(grp.VendorHolding)}
		for i := range grp.Batches {
			b := &grp.Batches[i]
			n, err := livestock.ParseBatchNumber(b.BatchNumber)
			if err != nil {
				errs.add(fmt.Sprintf("/content/movementGroups/%d/batches/%d/batchNumber", g, i), err)
			}
			b.BatchNumber = n.String()
			mg.Batches = append(mg.Batches, livestock.BatchLine{Number: n, Total: b.AnimalTotal})
		}
		for _, l := range []struct {
			list    string
			devices []deviceWire
		}{{"devices", grp.Devices}, {"devicesWithDetail", grp.DevicesWithDetail}} {
			list, devices := l.list, l.devices
			for i := range devices {
				d, err := normaliseDevice(t.Species, &devices[i])
				if err != nil {
					errs.add(fmt.Sprintf("/content/movementGroups/%d/%s/%d/tagNumber", g, list, i), err)
				}
				if born := devices[i].DateOfBirth; born != nil {
					if _, err := livestock.ParseRecordDate(*born); err != nil {
						errs.add(fmt.Sprintf("/content/movementGroups/%d/%s/%d/dateOfBirth", g, list, i), err)
					}
				}
				mg.Devices = append(mg.Devices, d)
			}
		}
		mg.Detailed = len(grp.DevicesWithDetail)
		t.Groups = append(t.Groups, mg)
	}
	return t, w, errs.err()
}

// normaliseDevice reads a device by its tag number or, when that is
// absent, its RFID (hex, decimal or printed), rewrites both in their
// normal forms and checks that they name the same tag.
func normaliseDevice(species livestock.Species, d *deviceWire) (livestock.Device, error) {
	tagText := strings.TrimSpace(deref(d.TagNumber))
	var rfid livestock.RFID
	if d.RFID != nil && *d.RFID != "" {
		r, err := livestock.ParseRFID(*d.RFID)
		if err != nil {
			return livestock.Device{}, err
		}
		rfid = r
		if tagText == "" {
			printed, ok := r.Printed()
			if !ok {
				return livestock.Device{}, livestock.Invalid("", livestock.FieldError{Code: livestock.CodeBadFormat,
					Message: "the rfid is not of a UK sheep or goat tag", Value: *d.RFID})
			}
			tagText = printed
		}
	}
	if tagText == "" {
		return livestock.Device{}, livestock.Invalid("", livestock.FieldError{Code: livestock.CodeMissing,
			Message: "a device needs a tagNumber or an rfid"})
	}
	tag, err := livestock.ParseTag(species, tagText)
	if err != nil {
		return livestock.Device{}, err
	}
	fromTag, ok := tag.RFID()
	if ok && !rfid.IsZero() && rfid != fromTag {
		return livestock.Device{}, livestock.Invalid("", livestock.FieldError{Code: livestock.CodeBadFormat,
			Message: fmt.Sprintf("the rfid %s is not that of tag %s (%s)", rfid, tag, fromTag), Value: tagText})
	}
	printed := tag.String()
	d.TagNumber = &printed
	if ok {
		dec := fromTag.Decimal()
		d.RFID = &dec
	}
	return livestock.Device{Tag: tag, RFID: fromTag, Freezebrand: deref(d.Freezebrand)}, nil
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
