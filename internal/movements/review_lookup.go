package movements

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// ForReview is a movement awaiting review with what the review look-up
// shows beside the movement itself: facts of the transfer that made it
// (read from its stored content) and the other movements it duplicates.
// A string left "" is unknown: the look-up shows it as null.
type ForReview struct {
	store.Movement
	// MovementAt is the date-time the transfer (or its correction) named,
	// kept with its request; the movement keeps only its day, which stands
	// in for a request that has none.
	MovementAt    time.Time
	UserHolding   string // the holding the submitter acted as
	Haulier       string
	Vehicle       string
	DocumentType  string
	DocumentRef   string
	DeviceDetails []DeviceDetail // one for each of Movement.Devices
	BatchDetails  []BatchDetail  // one for each of Movement.Batches
	Branded       []DeviceDetail // deer the transfer named by freezebrand alone: moved, but not on the register
	// Duplicates are the requestIds of the other reports of the same
	// move: movements awaiting the same review that report it, and
	// transfers recorded as reports of this one from its other end.
	Duplicates []int64
}

// DeviceDetail is what the transfer said of one device.
type DeviceDetail struct {
	Freezebrand, Breed, BeginBirthPeriod, EndBirthPeriod string
}

// BatchDetail is what the transfer said of one batch line.
type BatchDetail struct {
	IDMark, StockType string
}

// transferFacts is the part of a stored transfer's content the look-up
// shows. It is read leniently: whatever else the content holds is passed
// over, and a member the look-up cannot read leaves its facts unknown.
type transferFacts struct {
	UserHolding      string  `json:"userHolding"`
	Haulier          *string `json:"transportHaulierName"`
	Vehicle          *string `json:"transportVehicleRegistrationNo"`
	MovementDocument *struct {
		DocumentType        *string `json:"documentType"`
		MovementDocumentRef *string `json:"movementDocumentRef"`
		TransportDetail     *struct {
			Haulier *string `json:"transportHaulierName"`
			Vehicle *string `json:"transportVehicleRegistrationNo"`
		} `json:"transportDetail"`
	} `json:"movementDocument"`
	MovementGroups []struct {
		Batches []struct {
			IDMark    *string `json:"idMark"`
			StockType *string `json:"stockType"`
		} `json:"batches"`
		Devices           []deviceFacts `json:"devices"`
		DevicesWithDetail []deviceFacts `json:"devicesWithDetail"`
	} `json:"movementGroups"`
}

// deviceFacts reads a device flat (tagNumber beside breed) or nested
// (device.tagNumber beside breed), as either form was sent.
type deviceFacts struct {
	TagNumber        *string `json:"tagNumber"`
	RFID             *string `json:"rfid"`
	Freezebrand      *string `json:"freezebrand"`
	Breed            *string `json:"breed"`
	BeginBirthPeriod *string `json:"beginBirthPeriod"`
	EndBirthPeriod   *string `json:"endBirthPeriod"`
	Device           *struct {
		TagNumber   *string `json:"tagNumber"`
		RFID        *string `json:"rfid"`
		Freezebrand *string `json:"freezebrand"`
	} `json:"device"`
}

// detailReviews adds to each movement of list the facts of the request
// that last made it (a transfer or its correction) and its duplicates.
func (s *Service) detailReviews(ctx context.Context, q store.ReviewQuery, list []store.Movement) ([]ForReview, error) {
	ids := make([]int64, len(list))
	for i, m := range list {
		ids[i] = m.RequestID
	}
	reqs, err := s.store.RequestsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	dups, err := s.duplicates(ctx, q, list)
	if err != nil {
		return nil, err
	}
	out := make([]ForReview, len(list))
	for i, m := range list {
		out[i] = detailReview(m, reqs[m.RequestID])
		out[i].Duplicates = slices.Compact(slices.Sorted(slices.Values(slices.Concat(dups[m.ID], m.Duplicates))))
	}
	return out, nil
}

func detailReview(m store.Movement, req store.Request) ForReview {
	f := ForReview{Movement: m, DeviceDetails: make([]DeviceDetail, len(m.Devices)), BatchDetails: make([]BatchDetail, len(m.Batches)),
		DocumentType: DocumentType, DocumentRef: req.DocumentRef, UserHolding: m.Source.String(), MovementAt: m.TransferDate}
	if !req.MovementDate.IsZero() {
		f.MovementAt = req.MovementDate
	}
	// The end that reported the movement stands for userHolding when the
	// content does not say.
	if m.ReportedBy == store.SideDestination {
		f.UserHolding = m.Destination.String()
	}
	var t transferFacts
	if json.Unmarshal(req.Content, &t) != nil {
		return f
	}
	f.UserHolding = first(t.UserHolding, f.UserHolding)
	f.Haulier, f.Vehicle = deref(t.Haulier), deref(t.Vehicle)
	if d := t.MovementDocument; d != nil {
		if deref(d.DocumentType) != "" || deref(d.MovementDocumentRef) != "" {
			f.DocumentType, f.DocumentRef = deref(d.DocumentType), deref(d.MovementDocumentRef)
		}
		if td := d.TransportDetail; td != nil {
			f.Haulier, f.Vehicle = first(f.Haulier, deref(td.Haulier)), first(f.Vehicle, deref(td.Vehicle))
		}
	}
	byTag := map[string]DeviceDetail{}
	line := 0
	for _, g := range t.MovementGroups {
		for _, b := range g.Batches {
			if line < len(f.BatchDetails) {
				f.BatchDetails[line] = BatchDetail{IDMark: deref(b.IDMark), StockType: deref(b.StockType)}
			}
			line++
		}
		for _, d := range slices.Concat(g.Devices, g.DevicesWithDetail) {
			tag, rfid, brand := deref(d.TagNumber), deref(d.RFID), deref(d.Freezebrand)
			if d.Device != nil {
				tag, rfid, brand = first(tag, deref(d.Device.TagNumber)), first(rfid, deref(d.Device.RFID)), first(brand, deref(d.Device.Freezebrand))
			}
			detail := DeviceDetail{Freezebrand: brand, Breed: deref(d.Breed), BeginBirthPeriod: deref(d.BeginBirthPeriod), EndBirthPeriod: deref(d.EndBirthPeriod)}
			if tag == "" && rfid == "" && brand != "" {
				f.Branded = append(f.Branded, detail)
			}
			for _, key := range []string{tag, rfid} {
				if key != "" {
					byTag[key] = detail
				}
			}
		}
	}
	if line != len(f.BatchDetails) { // not the content that made these lines: say nothing of them
		clear(f.BatchDetails)
	}
	for i, d := range m.Devices {
		if detail, ok := byTag[d.Identifier.String()]; ok {
			f.DeviceDetails[i] = detail
		} else if detail, ok := byTag[d.RFID.String()]; ok && !d.RFID.IsZero() {
			f.DeviceDetails[i] = detail
		}
	}
	return f
}

// maxDatesPerQuery bounds the dates one look-up of possible duplicates
// names.
const maxDatesPerQuery = 50

// duplicates finds, for each movement of list, the other movements
// awaiting the same holding's review of the same species that report the
// same move: the same source and destination, the same transfer date,
// and an animal in common (a tag, or a batch number other than unknown).
// That happens when both keepers of a move, or two users acting for the
// source, report it.
func (s *Service) duplicates(ctx context.Context, q store.ReviewQuery, list []store.Movement) (map[int64][]int64, error) {
	// A movement keeps its UK day; the look-up's movementDate is the
	// instant its request named. Each day is asked for as the instants on
	// it, and sameMove then matches the days.
	var days []livestock.Date
	for _, m := range list {
		if d := livestock.DateOf(m.TransferDate); !slices.Contains(days, d) {
			days = append(days, d)
		}
	}
	var same []store.Movement
	for part := range slices.Chunk(days, maxDatesPerQuery) {
		var f odata.Expr
		for _, d := range part {
			var c odata.Expr = &odata.And{
				Left:  &odata.Comparison{Field: "movementDate", Op: odata.Ge, Value: livestock.UKDayStart(d).UTC()},
				Right: &odata.Comparison{Field: "movementDate", Op: odata.Lt, Value: livestock.UKDayStart(d.AddDays(1)).UTC()}}
			if f != nil {
				c = &odata.Or{Left: f, Right: c}
			}
			f = c
		}
		found, err := s.store.PendingReviews(ctx, store.ReviewQuery{Holding: q.Holding, Species: q.Species, Filter: f})
		if err != nil {
			return nil, err
		}
		same = append(same, found...)
	}
	out := map[int64][]int64{}
	for _, m := range list {
		for _, o := range same {
			if o.ID != m.ID && sameMove(m, o) {
				out[m.ID] = append(out[m.ID], o.RequestID)
			}
		}
	}
	return out, nil
}

// sameMove says whether a and b report the same move of at least one animal.
func sameMove(a, b store.Movement) bool {
	if a.Source != b.Source || a.Destination != b.Destination || !a.TransferDate.Equal(b.TransferDate) {
		return false
	}
	tags := map[string]bool{}
	for _, d := range a.Devices {
		tags[d.Identifier.String()] = true
	}
	for _, d := range b.Devices {
		if tags[d.Identifier.String()] {
			return true
		}
	}
	for _, x := range a.Batches {
		for _, y := range b.Batches {
			if x.BatchNumber == y.BatchNumber && !x.BatchNumber.IsUnknown() && !x.BatchNumber.IsZero() {
				return true
			}
		}
	}
	return false
}

// first is a, or b when a is "".
func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
