package movements

import "encoding/json"

// transferModel is a transfer (or a correction) as it is stored and shown
// under $expand=content: the live service's TransferModel (a correction's
// CorrectTransferModel adds requestToBeUndone_ID), every identifier in its
// normal form, every date a date-time, every flag an object.
type transferModel struct {
	RequestToBeUndone  *int64            `json:"requestToBeUndone_ID,omitempty"`
	TransferDate       string            `json:"transferDate"`
	Species            string            `json:"species"`
	UserHolding        string            `json:"userHolding"`
	SourceHolding      string            `json:"sourceHolding"`
	DestinationHolding string            `json:"destinationHolding"`
	AnimalCount        int               `json:"animalCount"`
	MovementGroups     []groupModel      `json:"movementGroups"`
	SaleDate           *string           `json:"saleDate,omitempty"`
	SaleID             *string           `json:"saleId,omitempty"`
	Haulier            *string           `json:"transportHaulierName,omitempty"`
	VehicleReg         *string           `json:"transportVehicleRegistrationNo,omitempty"`
	TrackingID         *string           `json:"trackingId,omitempty"`
	MovementDocument   *movementDocument `json:"movementDocument,omitempty"`
	DeviceApplication  *deviceApp        `json:"deviceApplication,omitempty"`
	ProcessingFlags    []flagModel       `json:"processingFlags,omitempty"`
}

// transferIn is a transfer as a client may post it: the live shape, and
// the names and forms Drover took before it (requestToBeCorrected_ID,
// flags as plain names, deviceApplication as a date, a device's details
// beside its tag rather than around it).
type transferIn struct {
	ID                   *int64            `json:"id"` // the live model's; Drover's id is the requestId
	RequestToBeUndone    *int64            `json:"requestToBeUndone_ID"`
	RequestToBeCorrected *int64            `json:"requestToBeCorrected_ID"`
	TransferDate         string            `json:"transferDate"`
	Species              *string           `json:"species"`
	UserHolding          string            `json:"userHolding"`
	SourceHolding        string            `json:"sourceHolding"`
	DestinationHolding   string            `json:"destinationHolding"`
	AnimalCount          int               `json:"animalCount"`
	MovementGroups       []groupIn         `json:"movementGroups"`
	SaleDate             *string           `json:"saleDate"`
	SaleID               *string           `json:"saleId"`
	Haulier              *string           `json:"transportHaulierName"`
	VehicleReg           *string           `json:"transportVehicleRegistrationNo"`
	TrackingID           *string           `json:"trackingId"`
	MovementDocument     *movementDocument `json:"movementDocument"`
	DeviceApplication    json.RawMessage   `json:"deviceApplication"`
	ProcessingFlags      []json.RawMessage `json:"processingFlags"`
}

type groupModel struct {
	FromSubLocation   *string       `json:"fromSubLocation,omitempty"`
	ToSubLocation     *string       `json:"toSubLocation,omitempty"`
	VendorHolding     *string       `json:"vendorHolding,omitempty"`
	Batches           []batchModel  `json:"batches,omitempty"`
	Devices           []deviceModel `json:"devices,omitempty"`
	DevicesWithDetail []detailModel `json:"devicesWithDetail,omitempty"`
}

type groupIn struct {
	FromSubLocation   *string       `json:"fromSubLocation"`
	ToSubLocation     *string       `json:"toSubLocation"`
	VendorHolding     *string       `json:"vendorHolding"`
	Batches           []batchModel  `json:"batches"`
	Devices           []deviceModel `json:"devices"`
	DevicesWithDetail []detailIn    `json:"devicesWithDetail"`
}

// batchModel is a batch: its number is optional for deer, which have no
// flock marks.
type batchModel struct {
	BatchNumber *string `json:"batchNumber,omitempty"`
	AnimalTotal int     `json:"animalTotal"`
	IDMark      *string `json:"idMark,omitempty"`
	StockType   *string `json:"stockType,omitempty"`
}

// deviceModel names one animal by its tag, its RFID or its freezebrand.
type deviceModel struct {
	TagNumber   *string `json:"tagNumber,omitempty"`
	RFID        *string `json:"rfid,omitempty"`
	Freezebrand *string `json:"freezebrand,omitempty"`
}

type detailModel struct {
	Device           deviceModel `json:"device"`
	Breed            *string     `json:"breed,omitempty"`
	Gender           *string     `json:"gender,omitempty"`
	BeginBirthPeriod *string     `json:"beginBirthPeriod,omitempty"`
	EndBirthPeriod   *string     `json:"endBirthPeriod,omitempty"`
	MgtTag           *mgtTag     `json:"mgtTag,omitempty"`

	// dob: the birth period was sent as Drover's earlier dateOfBirth, the
	// member an error about it names. Not stored.
	dob bool
}

// detailIn is a device with details: the live nested device, or Drover's
// earlier flat form (tagNumber, rfid, freezebrand, sex, dateOfBirth).
type detailIn struct {
	Device           *deviceModel `json:"device"`
	TagNumber        *string      `json:"tagNumber"`
	RFID             *string      `json:"rfid"`
	Freezebrand      *string      `json:"freezebrand"`
	Breed            *string      `json:"breed"`
	Gender           *string      `json:"gender"`
	Sex              *string      `json:"sex"`
	BeginBirthPeriod *string      `json:"beginBirthPeriod"`
	EndBirthPeriod   *string      `json:"endBirthPeriod"`
	DateOfBirth      *string      `json:"dateOfBirth"`
	MgtTag           *mgtTag      `json:"mgtTag"`
}

type mgtTag struct {
	Identifier *string `json:"identifier,omitempty"`
}

// flagModel is a processing flag: its name (the code in standing data
// processingFlags) and Drover's id of it.
type flagModel struct {
	ProcessingFlagID *int   `json:"processingFlagId,omitempty"`
	Name             string `json:"name"`
}

// deviceApp records that the tags were applied, with the animals' birth
// period and breed.
type deviceApp struct {
	DateOfApplication *string `json:"dateOfApplication,omitempty"`
	BeginBirthPeriod  *string `json:"beginBirthPeriod,omitempty"`
	EndBirthPeriod    *string `json:"endBirthPeriod,omitempty"`
	Breed             *string `json:"breed,omitempty"`
}
