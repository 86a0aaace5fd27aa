package store

import (
	"maps"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
)

// RequestType names the four kinds of movement request, as the live
// service's requestType standing data does.
type RequestType string

const (
	RequestTransfer   RequestType = "TransferRequest"
	RequestCorrection RequestType = "CorrectTransferRequest"
	RequestReview     RequestType = "ReviewHoldingMovementRequest"
	RequestUndo       RequestType = "UndoRequest"
)

// RequestStatus is where a request is, in the live service's values
// (CLAOData.Models.RequestStatus). docs/request-status.md says which of
// them Drover produces and when.
type RequestStatus string

const (
	StatusNotAvailable     RequestStatus = "NotAvailable"     // never produced
	StatusPending          RequestStatus = "Pending"          // queued: its job has not decided it yet
	StatusProcessing       RequestStatus = "Processing"       // never produced: a job decides in one transaction
	StatusSuccess          RequestStatus = "Success"          // took effect, nothing to warn about
	StatusFail             RequestStatus = "Fail"             // broke a rule: no effect, errors say why
	StatusQueueFail        RequestStatus = "QueueFail"        // could not be processed at all: submit it again
	StatusCompletedError   RequestStatus = "CompletedError"   // took effect in part: never produced (Drover applies all or nothing)
	StatusRejected         RequestStatus = "Rejected"         // never produced: Drover answers Fail
	StatusCancelled        RequestStatus = "Cancelled"        // never produced
	StatusCompletedWarning RequestStatus = "CompletedWarning" // took effect; warnings say what to look at

	// StatusFailed is StatusFail under the name it had before the live
	// values; the value it stood for ("Failed") is no longer stored.
	StatusFailed = StatusFail
)

// RequestStatuses are the live values, in the live definition's order:
// every value a client may name in $filter.
var RequestStatuses = []RequestStatus{StatusNotAvailable, StatusPending, StatusProcessing, StatusSuccess, StatusFail,
	StatusQueueFail, StatusCompletedError, StatusRejected, StatusCancelled, StatusCompletedWarning}

// Applied reports whether a request in status s took effect: only such a
// request may be corrected or undone.
func (s RequestStatus) Applied() bool {
	return s == StatusSuccess || s == StatusCompletedWarning || s == StatusCompletedError
}

// Final reports whether s is an end state: the request never changes
// status again.
func (s RequestStatus) Final() bool {
	return s != StatusPending && s != StatusProcessing && s != StatusNotAvailable
}

// readStatus reads a requestStatus literal of $filter: a live value, or
// "Failed", what a failed request was called before the live values.
func readStatus(s string) (string, error) {
	if s == "Failed" {
		return string(StatusFail), nil
	}
	return s, nil
}

func statusNames() []string {
	out := make([]string, len(RequestStatuses))
	for i, s := range RequestStatuses {
		out[i] = string(s)
	}
	return out
}

// Request is one submitted movement request: its record and its payload.
type Request struct {
	ID            int64
	Type          RequestType
	Status        RequestStatus
	UserName      string // the submitter
	RequestDate   time.Time
	UpdatedDate   time.Time
	MovementDate  time.Time         // the transfer's date-time as reported, or a review's arrival date at 00:00Z; zero when none
	Species       livestock.Species // Sheep, Goats or Deer; zero when none (a review's, until its job reads the movement)
	TrackingID    string            // "" when none; unique per user and type among requests that have one
	CorrelationID string
	Holdings      []livestock.CPH // the holdings the request concerns: who besides the submitter may see it; read back in CPH order
	TargetID      int64           // the request corrected, reviewed or undone; 0 when none
	IsFullUndone  bool
	UndoSupported bool
	Content       []byte // the payload (inside the envelope) as normalised JSON
	Errors        []livestock.FieldError
	Warnings      []livestock.FieldError
	DocumentRef   string // the movement document reference of a successful transfer
}

// RequestQuery selects requests of one type that a user may see, in
// ascending id order (stable while new requests arrive). AfterID applies
// first, then Offset, then Limit; a Limit of zero or less means no limit.
//
// Every comparison of a Filter is true or false, never unknown: a field
// with no value (trackingId, movementDate) equals nothing and differs from
// everything, so `ne` and `not … eq` both include the requests without
// one, and no order comparison does.
type RequestQuery struct {
	Type     RequestType
	All      bool   // an inspector: every request
	UserName string // otherwise: those this user submitted
	Filter   odata.Expr
	AfterID  int64 // only ids greater than this (keyset paging)
	// Order, when not nil, replaces the id order: fields of
	// RequestFilterFields that have an order, the last of them requestId
	// (odata.Query.Order). After then holds, when not nil, the values
	// (Request.Value) of the item the page starts after, one per field of
	// Order; AfterID is not used. A member that has none sorts first
	// ascending and last descending, as in OData.
	Order  []odata.OrderItem
	After  []any
	Offset int
	Limit  int
	// Content reads each request's content; without it Content is nil,
	// as a listing that does not show it need not read it.
	Content bool
}

// RequestFilterFields are the fields a RequestQuery's Filter may name.
var RequestFilterFields = odata.Fields{
	"movementDate":  {Kind: odata.DateTime},
	"requestDate":   {Kind: odata.DateTime},
	"species":       {Kind: odata.String, Values: livestock.MovementSpeciesNames()},
	"requestStatus": {Kind: odata.String, Values: statusNames(), Read: readStatus},
	"trackingId":    {Kind: odata.String},
	"userName":      {Kind: odata.String},
	"requestId":     {Kind: odata.Int},
	// holding: the requests that concern a holding (its source or
	// destination), eq or ne only; what an inspector tracing a holding asks.
	"holding": {Kind: odata.String, Read: livestock.NormalCPH, Unordered: true},
	// The live record's members, and the members of its content that
	// Drover keeps beside it.
	"updatedDate":        {Kind: odata.DateTime},
	"isFullUndone":       {Kind: odata.Bool},
	"undoSupported":      {Kind: odata.Bool},
	"isContentPurged":    {Kind: odata.Bool},
	"content/trackingId": {Kind: odata.String},
	"content/species":    {Kind: odata.String, Values: livestock.MovementSpeciesNames()},
}

// contentlessSpecies are the fields a listing of reviews or undos may
// name: their content has no species (the live models have none), so
// content/species is unknown there; species, the movement's, stays.
var contentlessSpecies = func() odata.Fields {
	f := maps.Clone(RequestFilterFields)
	delete(f, "content/species")
	return f
}()

// RequestFilterFieldsOf are the fields of RequestFilterFields that a
// listing of requests of type typ may name.
func RequestFilterFieldsOf(typ RequestType) odata.Fields {
	if typ == RequestReview || typ == RequestUndo {
		return contentlessSpecies
	}
	return RequestFilterFields
}
