// Package movements is the livestock movements interface's behaviour:
// submissions (checked at once for what needs no look-up beyond the
// caller's own holdings), the background job that applies the movement
// rules to each request exactly once, and the look-ups of requests and of
// movements awaiting review. The HTTP layer decodes and answers; the rules
// themselves are pure functions in package livestock.
package movements

import (
	"bytes"
	"encoding/json"

	"github.com/drover-registry/drover/internal/jsonwire"
	"github.com/drover-registry/drover/internal/livestock"
)

// transferContent is the transfer payload on the wire (domain-notes §1).
// A correction adds requestToBeCorrected_ID.
type transferContent struct {
	RequestToBeCorrected *int64 `json:"requestToBeCorrected_ID,omitempty"`

	TransferDate       string      `json:"transferDate"`
	Species            string      `json:"species"`
	UserHolding        string      `json:"userHolding"`
	SourceHolding      string      `json:"sourceHolding"`
	DestinationHolding string      `json:"destinationHolding"`
	AnimalCount        int         `json:"animalCount"`
	MovementGroups     []groupWire `json:"movementGroups"`
	SaleDate           *string     `json:"saleDate,omitempty"`
	SaleID             *string     `json:"saleId,omitempty"`
	Haulier            *string     `json:"transportHaulierName,omitempty"`
	VehicleReg         *string     `json:"transportVehicleRegistrationNo,omitempty"`
	TrackingID         *string     `json:"trackingId,omitempty"`
	DeviceApplication  *string     `json:"deviceApplication,omitempty"`
	ProcessingFlags    []string    `json:"processingFlags,omitempty"`
}

type groupWire struct {
	FromSubLocation   *string      `json:"fromSubLocation,omitempty"`
	ToSubLocation     *string      `json:"toSubLocation,omitempty"`
	VendorHolding     *string      `json:"vendorHolding,omitempty"`
	Batches           []batchWire  `json:"batches,omitempty"`
	Devices           []deviceWire `json:"devices,omitempty"`
	DevicesWithDetail []deviceWire `json:"devicesWithDetail,omitempty"`
}

type batchWire struct {
	BatchNumber string `json:"batchNumber"`
	AnimalTotal int    `json:"animalTotal"`
}

type deviceWire struct {
	TagNumber   *string `json:"tagNumber,omitempty"`
	RFID        *string `json:"rfid,omitempty"`
	Freezebrand *string `json:"freezebrand,omitempty"`
	Breed       *string `json:"breed,omitempty"`
	Sex         *string `json:"sex,omitempty"`
	DateOfBirth *string `json:"dateOfBirth,omitempty"`
}

// envelope is every POST body of the interface: {"content": …}.
type envelope struct {
	Content json.RawMessage `json:"content"`
}

// openEnvelope returns the payload inside {"content": …}; a bare payload
// is a 400 (domain-notes §1).
func openEnvelope(body []byte) (json.RawMessage, error) {
	var env envelope
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil || len(env.Content) == 0 || string(env.Content) == "null" {
		return nil, livestock.Invalid("the body must be wrapped in an envelope", livestock.FieldError{
			Code: livestock.CodeNoEnvelope, Source: "/content", Message: `the body must be {"content": {…}}`})
	}
	return env.Content, nil
}

// decodeStrict decodes a payload, refusing unknown properties.
func decodeStrict(data []byte, v any) error {
	if err := jsonwire.Decode(data, v); err != nil {
		source, msg := jsonwire.Problem(err, "/content")
		return livestock.Invalid("the payload cannot be read", livestock.FieldError{
			Code: livestock.CodeSchema, Source: source, Message: msg})
	}
	return nil
}

// fieldErrs collects the problems found while reading a payload.
type fieldErrs []livestock.FieldError

// add records err, which a livestock parser returned, at JSON pointer at.
func (f *fieldErrs) add(at string, err error) {
	var e *livestock.Error
	if le, ok := err.(*livestock.Error); ok {
		e = le
	}
	if e == nil || len(e.Fields) == 0 {
		*f = append(*f, livestock.FieldError{Code: livestock.CodeBadFormat, Source: at, Message: err.Error()})
		return
	}
	for _, fe := range e.Fields {
		fe.Source = at
		*f = append(*f, fe)
	}
}

func (f fieldErrs) err() error {
	if len(f) == 0 {
		return nil
	}
	return livestock.Invalid("the payload breaks the interface's formats", f...)
}
