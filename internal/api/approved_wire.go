package api

import (
	"strings"
	"unicode"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store"
)

// approvedMovement is the live ApprovedMovement: one end's record of a
// movement. A Departure record shows the animals as reported; a
// Destination record the animals the destination has (all of them when
// it reported the move, those it accepted when it reviewed it).
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

type approvedSpecies struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type approvedDocument struct {
	MovementDocumentRef string               `json:"movementDocumentRef"`
	DocumentType        approvedDocumentType `json:"documentType"`
	DestinationDetail   *approvedArrival     `json:"destinationDetail,omitempty"`
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

type approvedDevice struct {
	TagNumber   string     `json:"tagNumber"`
	RFID        *string    `json:"rfid"`
	Freezebrand *string    `json:"freezebrand"`
	MovementID  int64      `json:"approvedMovementId"`
	RecordedBy  store.Side `json:"approvedMovementRecordedBy"`
}

type approvedBatch struct {
	BatchNumber string     `json:"batchNumber"`
	AnimalTotal int        `json:"animalTotal"`
	MovementID  int64      `json:"approvedMovementId"`
	RecordedBy  store.Side `json:"approvedMovementRecordedBy"`
}

type approvedFlagLink struct {
	MovementID     int64        `json:"approvedMovementId"`
	RecordedBy     store.Side   `json:"approvedMovementRecordedBy"`
	ProcessingFlag approvedFlag `json:"processingFlag"`
}

// approvedFlag is a processing flag as the live ProcessingFlag has it:
// name and description of letters, digits and spaces only.
type approvedFlag struct {
	FlagName        string `json:"flagName"`
	FlagDescription string `json:"flagDescription"`
	IsSystem        bool   `json:"isSystem"`
}

// approvedRecord renders a; context is set on a single entity.
func (s *Server) approvedRecord(a store.ApprovedMovement, context string) approvedMovement {
	sp := livestock.SpeciesNamed(a.Species)
	out := approvedMovement{Context: context, ID: a.ID, RecordedBy: a.RecordedBy, SpeciesID: sp.ID(),
		Species: approvedSpecies{ID: sp.ID(), Name: a.Species}, SourceHolding: a.Source, DestinationHolding: a.Destination,
		TransferDate: instant(a.TransferDate), Devices: []approvedDevice{}, Batches: []approvedBatch{}, Flags: []approvedFlagLink{},
		MovementDocument: approvedDocument{MovementDocumentRef: movements.DocumentRef(a.ID),
			DocumentType: approvedDocumentType{Name: movements.DocumentType}}}
	// The destination's record holds what it has: what it accepted.
	destination := a.RecordedBy == store.SideDestination
	received := 0
	for _, d := range a.Devices {
		if destination && d.Outcome != "accepted" {
			continue
		}
		out.Devices = append(out.Devices, approvedDevice{TagNumber: d.Identifier, RFID: optionalString(d.RFID),
			MovementID: a.ID, RecordedBy: a.RecordedBy})
		received += boolInt(d.Outcome == "accepted")
	}
	for _, b := range a.Batches {
		total := b.AnimalTotal
		if destination {
			total = b.Accepted
		}
		if total > 0 || !destination {
			out.Batches = append(out.Batches, approvedBatch{BatchNumber: b.BatchNumber, AnimalTotal: total,
				MovementID: a.ID, RecordedBy: a.RecordedBy})
		}
		received += b.Accepted
	}
	out.AnimalTotal = a.AnimalCount
	if destination {
		out.AnimalTotal = received
	}
	if !a.ArrivalDate.IsZero() && a.State != store.MovementRejected {
		out.MovementDocument.DestinationDetail = &approvedArrival{ArrivalDateTime: instant(a.ArrivalDate), TotalAnimalsReceived: received}
	}
	for _, code := range a.Flags {
		out.Flags = append(out.Flags, approvedFlagLink{MovementID: a.ID, RecordedBy: a.RecordedBy,
			ProcessingFlag: approvedFlag{FlagName: plainText(code, 30), FlagDescription: plainText(s.flagDescription(code), 70)}})
	}
	return out
}

// flagDescription is a processing flag's description in standing data,
// or its code when it has none.
func (s *Server) flagDescription(code string) string {
	flags, err := s.standing.List("processingFlags")
	if err == nil {
		for _, f := range flags {
			if f.Code == code && f.Description != "" {
				return f.Description
			}
		}
	}
	return code
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
