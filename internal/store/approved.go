package store

import (
	"context"

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
// decided), and a Destination record when its destination keeper
// reported it or accepted it, in whole or in part, on review. An undone
// movement has neither.
type ApprovedMovement struct {
	Movement
	RecordedBy Side
}

// Key orders approved movements: by movement id, then Departure before
// Destination. It is what a page's $skiptoken holds.
func (a ApprovedMovement) Key() int64 {
	if a.RecordedBy == SideDestination {
		return a.ID*2 + 1
	}
	return a.ID * 2
}

// ApprovedQuery selects approved movements in Key order. A keeper sees
// the records of the ends they act for: the Departure record of a
// movement from one of Holdings, the Destination record of one to one of
// them. AfterKey applies first, then Offset, then Limit; a Limit of zero
// or less means no limit.
type ApprovedQuery struct {
	All      bool     // an inspector: every record
	Holdings []string // otherwise: the records of these holdings' ends (CPHs)
	Filter   odata.Expr
	AfterKey int64
	Offset   int
	Limit    int
}

// ApprovedFilterFields are the fields an ApprovedQuery's Filter may name.
// transferDate compares the transfer date as the instant 00:00Z of that
// date, as a ReviewQuery's movementDate does.
var ApprovedFilterFields = odata.Fields{
	"id":                 {Kind: odata.Int},
	"transferDate":       {Kind: odata.DateTime},
	"speciesId":          {Kind: odata.Int},
	"recordedBy":         {Kind: odata.String, Values: []string{string(SideDeparture), string(SideDestination)}, Unordered: true},
	"sourceHolding":      {Kind: odata.String, Read: livestock.NormalCPH, Unordered: true},
	"destinationHolding": {Kind: odata.String, Read: livestock.NormalCPH, Unordered: true},
}

// ApprovedStore reads approved movements; both Store implementations
// have it through MovementStore.
type ApprovedStore interface {
	ApprovedMovements(ctx context.Context, q ApprovedQuery) ([]ApprovedMovement, error)
	// ApprovedMovement returns movement id's record by side, whoever may
	// see it, or KindNotFound when the movement has no such record.
	ApprovedMovement(ctx context.Context, id int64, side Side) (ApprovedMovement, error)
}
