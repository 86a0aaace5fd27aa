package movements

// movementDocument is the movement document a transfer may carry: who
// sent and received the animals, when, how they travelled and their food
// chain information. It is stored with the transfer as given, its
// date-times and codes normalised.
type movementDocument struct {
	DocumentType        *string            `json:"documentType,omitempty"`
	MovementDocumentRef *string            `json:"movementDocumentRef,omitempty"`
	DepartureDetail     *departureDetail   `json:"departureDetail,omitempty"`
	DestinationDetail   *destinationDetail `json:"destinationDetail,omitempty"`
	TransportDetail     *transportDetail   `json:"transportDetail,omitempty"`
	FciDetail           *fciDetail         `json:"fciDetail,omitempty"`
}

type departureDetail struct {
	DepartureHoldingType      *string   `json:"departureHoldingType,omitempty"`
	DepartureDateTime         *string   `json:"departureDateTime,omitempty"`
	LoadingDateTime           *string   `json:"loadingDateTime,omitempty"`
	AnimalTotal               *int      `json:"animalTotal,omitempty"`
	DepartureKeeper           *contact  `json:"departureKeeper,omitempty"`
	DepartureOwner            *contact  `json:"departureOwner,omitempty"`
	ExpectedDurationOfJourney *duration `json:"expectedDurationOfJourney,omitempty"`
}

type destinationDetail struct {
	DestinationHoldingType *string  `json:"destinationHoldingType,omitempty"`
	ArrivalDateTime        *string  `json:"arrivalDateTime,omitempty"`
	UnloadingDateTime      *string  `json:"unloadingDateTime,omitempty"`
	TotalAnimalsReceived   *int     `json:"totalAnimalsReceived,omitempty"`
	HasKeeperChanged       *bool    `json:"hasKeeperChanged,omitempty"`
	DestinationKeeper      *contact `json:"destinationKeeper,omitempty"`
}

type transportDetail struct {
	TransporterType       *string  `json:"transporterType,omitempty"`
	TransporterAuthNumber *string  `json:"transporterAuthNumber,omitempty"`
	HaulierName           *string  `json:"transportHaulierName,omitempty"`
	VehicleReg            *string  `json:"transportVehicleRegistrationNo,omitempty"`
	Transporter           *contact `json:"transporter,omitempty"`
}

type fciDetail struct {
	IsAllAnimalsFciCompliant     *bool         `json:"isAllAnimalsFciCompliant,omitempty"`
	NonCompliantReason           *string       `json:"nonCompliantReason,omitempty"`
	HoldingRestrictions          *string       `json:"holdingRestrictions,omitempty"`
	WithdrawalPeriodObservedText *string       `json:"withdrawalPeriodObservedText,omitempty"`
	MetFCIWithdrawalPeriodCode   *string       `json:"metFCIWithdrawalPeriodCode,omitempty"`
	NonCompliantDevices          []deviceModel `json:"nonCompliantDevices,omitempty"`
}

// contact is a person at a holding: keeper, owner or transporter.
type contact struct {
	Title           *string `json:"title,omitempty"`
	FirstName       *string `json:"firstName,omitempty"`
	LastName        *string `json:"lastName,omitempty"`
	PropertyName    *string `json:"propertyName,omitempty"`
	Address1        *string `json:"address1,omitempty"`
	Address2        *string `json:"address2,omitempty"`
	Town            *string `json:"town,omitempty"`
	County          *string `json:"county,omitempty"`
	PostCode        *string `json:"postCode,omitempty"`
	TelephoneNumber *string `json:"telephoneNumber,omitempty"`
}

type duration struct {
	Days    *int `json:"days,omitempty"`
	Hours   *int `json:"hours,omitempty"`
	Minutes *int `json:"minutes,omitempty"`
}
