package api

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
)

// approvedMovement is the live ApprovedMovement: one end's record of a
// movement. A Departure record shows the animals as reported (those it
// accepted, when its keeper consented to an on-move); a Destination
// record the animals the destination has (all of them when it reported
// the move, those it accepted when it reviewed it). What the
// transfer did not say (a haulier, an idMark) is null.
type approvedMovement struct {
	Context            string             `json:"@odata.context,omitempty"`
	ID                 int64              `json:"id"`
	RecordedBy         store.Side         `json:"recordedBy"`
	SpeciesID          int                `json:"speciesId"`
	Species            approvedSpecies    `json:"species"`
	SourceHolding      string             `json:"sourceHolding"`
	DestinationHolding string             `json:"destinationHolding"`
	TransferDate       string             `json:"transferDate"`
	AnimalTotal        int                `json:"animalTotal"`
	MovementDocumentID *int64             `json:"movementDocumentId"`
	MovementDocument   approvedDocument   `json:"movementDocument"`
	Devices            []approvedDevice   `json:"devices"`
	Batches            []approvedBatch    `json:"batches"`
	Flags              []approvedFlagLink `json:"approvedMovementProcessingFlags"`
	HaulierName        *string            `json:"transportHaulierName"`
	VehicleNo          *string            `json:"transportVehicleRegistrationNo"`
}

// approvedExpand is what $expand may name on an approved movement: its
// related members as the live model has them, and theirs below (depth 2).
// Every one is always sent inline, so naming one changes nothing; it only
// keeps the member under a $select that does not name it.
var approvedExpand = []odata.Expansion{
	{Name: "species"},
	{Name: "movementDocument", Nested: []odata.Expansion{{Name: "documentType"}, {Name: "destinationDetail"}, {Name: "transportDetail"}}},
	{Name: "devices"},
	{Name: "batches"},
	{Name: "approvedMovementProcessingFlags", Nested: []odata.Expansion{{Name: "processingFlag"}}},
}

type approvedSpecies struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type approvedDocument struct {
	MovementDocumentRef string               `json:"movementDocumentRef"`
	DocumentType        approvedDocumentType `json:"documentType"`
	DestinationDetail   *approvedArrival     `json:"destinationDetail,omitempty"`
	TransportDetail     *approvedTransport   `json:"transportDetail,omitempty"`
}

type approvedDocumentType struct {
	Name string `json:"name"`
}

// approvedArrival is when the animals arrived and how many the
// destination has: known once the movement is complete or reviewed.
type approvedArrival struct {
	ArrivalDateTime      string `json:"arrivalDateTime"`
	TotalAnimalsReceived int    `json:"totalAnimalsReceived"`
}

// approvedTransport is who carried the animals, when the transfer said.
type approvedTransport struct {
	HaulierName *string `json:"transportHaulierName"`
	VehicleNo   *string `json:"transportVehicleRegistrationNo"`
}

type approvedDevice struct {
	TagNumber   string     `json:"tagNumber"`
	RFID        *string    `json:"rfid"`
	Freezebrand *string    `json:"freezebrand"`
	MovementID  int64      `json:"approvedMovementId"`
	RecordedBy  store.Side `json:"approvedMovementRecordedBy"`
}

// approvedBatch is a batch line, by the batchMovementId the review
// look-up and a review name it by.
type approvedBatch struct {
	BatchMovementID int64      `json:"batchMovementId"`
	BatchNumber     *string    `json:"batchNumber"`
	AnimalTotal     int        `json:"animalTotal"`
	IDMark          *string    `json:"idMark"`
	StockType       *string    `json:"stockType"`
	MovementID      int64      `json:"approvedMovementId"`
	RecordedBy      store.Side `json:"approvedMovementRecordedBy"`
}

type approvedFlagLink struct {
	ProcessingFlagID *int64       `json:"processingFlagId,omitempty"`
	MovementID       int64        `json:"approvedMovementId"`
	RecordedBy       store.Side   `json:"approvedMovementRecordedBy"`
	ProcessingFlag   approvedFlag `json:"processingFlag"`
}

// approvedFlag is a processing flag as the live ProcessingFlag has it:
// its id in standing data, name and description of letters, digits and
// spaces only.
type approvedFlag struct {
	ID              *int64 `json:"id,omitempty"`
	FlagName        string `json:"flagName"`
	FlagDescription string `json:"flagDescription"`
	IsSystem        bool   `json:"isSystem"`
}

// transferAt is the date-time a's transfer named; its day at 00:00Z
// when its request keeps none.
func transferAt(a store.ApprovedMovement) time.Time {
	if a.TransferAt.IsZero() {
		return a.TransferDate
	}
	return a.TransferAt
}

// approvedRecord renders a; context is set on a single entity.
func (s *Server) approvedRecord(a movements.Approved, context string) approvedMovement {
	out := approvedMovement{Context: context, ID: a.ID, RecordedBy: a.RecordedBy, SpeciesID: a.Species.ID(),
		Species: approvedSpecies{ID: a.Species.ID(), Name: store.SpeciesName(a.Species)}, SourceHolding: a.Source.String(), DestinationHolding: a.Destination.String(),
		TransferDate: instant(transferAt(a.ApprovedMovement)), Devices: []approvedDevice{}, Batches: []approvedBatch{}, Flags: []approvedFlagLink{},
		MovementDocument: approvedDocument{MovementDocumentRef: a.DocumentRef, DocumentType: approvedDocumentType{Name: a.DocumentType}},
		HaulierName:      orNull(a.Haulier), VehicleNo: orNull(a.Vehicle)}
	if a.Haulier != "" || a.Vehicle != "" {
		out.MovementDocument.TransportDetail = &approvedTransport{HaulierName: out.HaulierName, VehicleNo: out.VehicleNo}
	}
	// The destination's record holds what it has: what it accepted; a
	// departure's keeper who consented to an on-move confirmed only what
	// it accepted, and its record holds that.
	asAccepted := a.RecordedBy == store.SideDestination || a.SourceReviews()
	received := 0
	for i, d := range a.Devices {
		if asAccepted && d.Outcome != "accepted" {
			continue
		}
		out.Devices = append(out.Devices, approvedDevice{TagNumber: d.Identifier.String(), RFID: orNull(d.RFID.String()),
			Freezebrand: orNull(a.DeviceDetails[i].Freezebrand), MovementID: a.ID, RecordedBy: a.RecordedBy})
		received += boolInt(d.Outcome == "accepted")
	}
	for i, b := range a.Batches {
		total := b.AnimalTotal
		if asAccepted {
			total = b.Accepted
		}
		if total > 0 || !asAccepted {
			x := a.BatchDetails[i]
			out.Batches = append(out.Batches, approvedBatch{BatchMovementID: b.ID, BatchNumber: orNull(b.BatchNumber.String()), AnimalTotal: total,
				IDMark: orNull(x.IDMark), StockType: orNull(x.StockType), MovementID: a.ID, RecordedBy: a.RecordedBy})
		}
		received += b.Accepted
	}
	if a.State == store.MovementAccepted || a.State == store.MovementCompleted {
		received += a.Unnamed() // deer known by a freeze brand arrived with the movement
	}
	out.AnimalTotal = a.AnimalCount
	if asAccepted {
		out.AnimalTotal = received
	}
	if !a.ArrivalDate.IsZero() && a.State != store.MovementRejected {
		out.MovementDocument.DestinationDetail = &approvedArrival{ArrivalDateTime: instant(arrivalAt(a.ApprovedMovement)), TotalAnimalsReceived: received}
	}
	for _, code := range a.Flags {
		f := s.processingFlag(code)
		id, description := flagID(f), f.Description
		if description == "" {
			description = code
		}
		out.Flags = append(out.Flags, approvedFlagLink{ProcessingFlagID: id, MovementID: a.ID, RecordedBy: a.RecordedBy,
			ProcessingFlag: approvedFlag{ID: id, FlagName: plainText(code, 30), FlagDescription: plainText(description, 70)}})
	}
	return out
}

// processingFlag is the entry of standing data processingFlags with the
// code code, or an entry of the code alone when there is none.
func (s *Server) processingFlag(code string) standing.Entry {
	flags, err := s.standing.List("processingFlags")
	if err == nil {
		for _, f := range flags {
			if f.Code == code {
				return f
			}
		}
	}
	return standing.Entry{Code: code}
}

// flagID is a flag's processingFlagId in standing data, or nil when it
// has none.
func flagID(f standing.Entry) *int64 {
	id, err := strconv.ParseInt(f.Extra["processingFlagId"], 10, 64)
	if err != nil {
		return nil
	}
	return &id
}

// plainText is s with only letters, digits and spaces, cut to at most n
// bytes at a space where it can be: the live ProcessingFlag's rule.
func plainText(s string, n int) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	}), " ")
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n+1], ' '); i > 0 {
		return s[:i]
	}
	return s[:n]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// badPathID is the 400 for a key that is not a positive whole number.
func badPathID(param, value string) error {
	return livestock.Invalid("the "+param+" is not valid", livestock.FieldError{Code: livestock.CodeBadFormat,
		Source: "path:" + param, Value: value, Message: "must be a positive integer"})
}

// arrivalAt is when a's animals arrived: the date-time its review gave,
// else, on the day of the transfer (no review, or one that gave no
// arrival), the transfer's own date-time, else the day.
func arrivalAt(a store.ApprovedMovement) time.Time {
	switch {
	case !a.ArrivalAt.IsZero():
		return a.ArrivalAt
	case a.ArrivalDate.Equal(a.TransferDate) && !a.TransferAt.IsZero():
		return a.TransferAt
	}
	return a.ArrivalDate
}
