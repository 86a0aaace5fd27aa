package store

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
)

// Side is an end of a movement: the holding the animals left (Departure)
// or the one they went to (Destination).
type Side string

const (
	SideDeparture   Side = "Departure"
	SideDestination Side = "Destination"
)

// ApprovedMovement is one end's record of a movement applied to the
// registry: the live service's ApprovedMovement, keyed by the movement's
// id and the side that recorded it. A movement has a Departure record
// when its departure keeper reported it (whatever its review later
// decided), and a Destination record once its animals reached the
// destination: its keeper reported it and it needed no review, or a
// review accepted it, in whole or in part. An undone movement has
// neither.
type ApprovedMovement struct {
	Movement
	RecordedBy Side
	// TransferAt is the date-time the request that set the movement named;
	// Movement.TransferDate is its day.
	TransferAt time.Time
	// ArrivalAt is the date-time of the arrival the review that decided
	// the movement gave; zero when none did (Movement.ArrivalDate is its
	// day).
	ArrivalAt time.Time
}

// Key orders approved movements: by movement id, then Departure before
// Destination. It is what a page's $skiptoken holds.
func (a ApprovedMovement) Key() int64 {
	if a.RecordedBy == SideDestination {
		return a.ID*2 + 1
	}
	return a.ID * 2
}

// ApprovedQuery selects approved movements in Key order, or in Order. A
// keeper sees the records of the ends they act for: the Departure record
// of a movement from one of Holdings, the Destination record of one to
// one of them. AfterKey (or After) applies first, then Offset, then Limit;
// a Limit of zero or less means no limit.
type ApprovedQuery struct {
	All      bool            // an inspector: every record
	Holdings []livestock.CPH // otherwise: the records of these holdings' ends
	Filter   odata.Expr
	AfterKey int64 // in Key order: only records after this key
	// Order, when not nil, replaces Key order: fields of
	// ApprovedFilterFields, ending with those of ApprovedKey
	// (odata.Query.Order). After then holds, when not nil, the values
	// (ApprovedMovement.Value) of the record the page starts after, one
	// per field of Order; AfterKey is not used.
	Order  []odata.OrderItem
	After  []any
	Offset int
	Limit  int
}

// ApprovedKey is the fields that together identify an approved movement,
// last in every order of a listing (odata.Collection.Key).
var ApprovedKey = []string{"id", "recordedBy"}

// ApprovedFilterFields are the fields an ApprovedQuery's Filter may name
// and its Order sort by. transferDate is the date-time the transfer (or
// its correction) named (ApprovedMovement.TransferAt).
// Holdings sort as their CPHs' text, which orders them by county, parish
// and holding number.
var ApprovedFilterFields = odata.Fields{
	"id":                 {Kind: odata.Int},
	"transferDate":       {Kind: odata.DateTime},
	"speciesId":          {Kind: odata.Int},
	"recordedBy":         {Kind: odata.String, Values: []string{string(SideDeparture), string(SideDestination)}},
	"sourceHolding":      {Kind: odata.String, Read: livestock.NormalCPH},
	"destinationHolding": {Kind: odata.String, Read: livestock.NormalCPH},
}

// Value is a's value for a field of ApprovedFilterFields, as the store
// keeps it (an int64, a time.Time or a string; nil for a species outside
// the movements interface): what a $skiptoken holds for the last record of
// a page under an $orderby (ApprovedQuery.After).
func (a ApprovedMovement) Value(field string) any {
	switch field {
	case "id":
		return a.ID
	case "transferDate":
		// The instant the listing sorts and filters on, not the day: a
		// page ending at 15:00 goes on after 15:00, not after midnight.
		if a.TransferAt.IsZero() {
			return a.TransferDate
		}
		return a.TransferAt
	case "speciesId":
		if id := a.Species.ID(); id != 0 {
			return int64(id)
		}
	case "recordedBy":
		return string(a.RecordedBy)
	case "sourceHolding":
		return a.Source.String()
	case "destinationHolding":
		return a.Destination.String()
	}
	return nil
}

// Values is a's values for the fields of order, for ApprovedQuery.After.
func (a ApprovedMovement) Values(order []odata.OrderItem) []any {
	out := make([]any, len(order))
	for i, o := range order {
		out[i] = a.Value(o.Field)
	}
	return out
}

// ApprovedStore reads approved movements; both Store implementations
// have it through MovementStore.
type ApprovedStore interface {
	ApprovedMovements(ctx context.Context, q ApprovedQuery) ([]ApprovedMovement, error)
	// CountApproved is how many records q selects, paging aside.
	CountApproved(ctx context.Context, q ApprovedQuery) (int64, error)
	// ApprovedMovement returns movement id's record by side, whoever may
	// see it, or KindNotFound when the movement has no such record.
	ApprovedMovement(ctx context.Context, id int64, side Side) (ApprovedMovement, error)
}
