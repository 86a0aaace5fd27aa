package store

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
)

// MovementState is where an applied transfer is in its life.
type MovementState string

const (
	MovementPendingReview MovementState = "PendingReview" // awaits the review of ReviewHolding
	MovementCompleted     MovementState = "Completed"     // needed no review: the destination has the animals
	MovementAccepted      MovementState = "Accepted"      // reviewed: accepted, in whole or in part
	MovementRejected      MovementState = "Rejected"      // reviewed: rejected as a whole
	MovementUndone        MovementState = "Undone"        // its transfer was undone
)

// Movement is a transfer that passed the rules: animals leaving Source
// for Destination. Its ID is the id of the transfer request that made it;
// a correction replaces its content and sets RequestID to its own id.
type Movement struct {
	ID            int64
	RequestID     int64
	UserName      string
	Species       livestock.Species // Sheep, Goats or Deer; data loaded for tracing may hold cattle
	Source        livestock.CPH
	Destination   livestock.CPH // an MHS given by the caller is resolved to its abattoir
	ReviewHolding livestock.CPH // the holding whose review it awaits; zero when it needs none
	TransferDate  time.Time
	ArrivalDate   time.Time // zero until reviewed (or the transfer date when no review is needed)
	State         MovementState
	AnimalCount   int
	Flags         []string // processingFlags, stored with the movement
	Standstill    bool     // whether it breached the standstill on Source (a warning)
	ReviewID      int64    // the review request that decided it; 0 before
	ReportedBy    Side     // the end whose keeper reported the transfer (its userHolding)
	Duplicates    []int64  // transfers recorded as this move reported again from its other end: they made no movement
	Devices       []MovementDevice
	Batches       []MovementBatch
}

// Settled is the request that last settled where m's animals are: its
// review, its latest version, or the transfer itself. Request ids rise
// with time, so of two movements of one animal the one settled later
// applied later, whatever their dates.
func (m Movement) Settled() int64 { return max(m.ID, m.RequestID, m.ReviewID) }

// SourceReviews reports whether m awaits, or awaited, the review of its
// source's keeper: an on-move the destination reported, which that keeper
// confirms in whole or in part. It was recorded blind, and its animals are
// checked when that keeper accepts it.
func (m Movement) SourceReviews() bool {
	return !m.ReviewHolding.IsZero() && m.ReviewHolding == m.Source
}

// Unnamed is how many of m's animals no tag or batch line names: deer
// known by a freeze brand alone, which the register does not hold. They go
// with the movement, and arrive when it does.
func (m Movement) Unnamed() int {
	n := m.AnimalCount - len(m.Devices)
	for _, b := range m.Batches {
		n -= b.AnimalTotal
	}
	return max(n, 0)
}

// MovementDevice is one tagged animal of a movement.
type MovementDevice struct {
	Identifier   livestock.Tag  // printed "UK0130181 00001"; of the movement's species
	RFID         livestock.RFID // decimal "0826013018100001"; zero for cattle
	PriorCPH     livestock.CPH  // where the animal was before (to put it back on undo)
	PriorOnSince time.Time      // since when it was there
	Outcome      string         // "" before review, "accepted" or "rejected" after
}

// MovementBatch is a batch of untagged animals of a movement.
type MovementBatch struct {
	// ID is the line's batchMovementId, unique among all batch lines and
	// kept for the line's life: the review look-up shows it and a review
	// names the line by it. A line given with 0 is assigned one.
	ID          int64
	BatchNumber livestock.BatchNumber // zero for a deer batch
	AnimalTotal int
	Accepted    int // animals accepted on review
}

// ReviewQuery selects movements awaiting a holding's review, in ascending
// id order, with their devices and batches. Its Filter compares
// movementDate with the transfer date taken as the instant 00:00Z of that
// date, so `ge 2026-11-01T00:00:00Z and le 2026-11-30T23:59:59Z` takes in
// the whole of November.
type ReviewQuery struct {
	Holding livestock.CPH
	Species livestock.Species
	Filter  odata.Expr // on movementDate (the transfer date)
	AfterID int64
	Offset  int
	Limit   int
}

// ReviewFilterFields are the fields a ReviewQuery's Filter may name.
var ReviewFilterFields = odata.Fields{
	"movementDate": {Kind: odata.DateTime},
	"requestId":    {Kind: odata.Int},
}

// Arrival is animals arriving on a holding, for the standstill rule.
type Arrival struct {
	MovementID int64
	Date       time.Time // the arrival date (the transfer date until reviewed)
	Species    livestock.Species
	Flags      []string
	Source     livestock.CPH
}

// MovementReader is what both a Store and a Tx can read about movements.
// A job reads through its Tx only: on PostgreSQL a read through the Store
// would need a second pool connection while the job holds one, and enough
// such jobs at once would wait on each other for ever.
type MovementReader interface {
	UserByName(ctx context.Context, name string) (livestock.User, error)
	Request(ctx context.Context, id int64) (Request, error)
	Flock(ctx context.Context, mark livestock.FlockMark) (Flock, error)
	HoldingByMHS(ctx context.Context, mhs livestock.MHS) (livestock.Holding, error)
}

// MovementStore reads movement requests, the movements they made and
// their approved records: what internal/movements shows.
type MovementStore interface {
	MovementReader
	Movement(ctx context.Context, id int64) (Movement, error)
	Animal(ctx context.Context, identifier string) (Animal, error)
	Requests(ctx context.Context, q RequestQuery) ([]Request, error)
	// CountRequests is how many requests q selects, without its paging
	// (AfterID, After, Offset, Limit) and order.
	CountRequests(ctx context.Context, q RequestQuery) (int64, error)
	PendingReviews(ctx context.Context, q ReviewQuery) ([]Movement, error)
	// RequestsByID returns the requests with these ids, by id, whatever
	// their type or submitter (the caller decides what may be shown); an
	// id no request has is absent. The review look-up reads the reviewed
	// transfers' content through it, a page at a time.
	RequestsByID(ctx context.Context, ids []int64) (map[int64]Request, error)
	// Approved movements (approved.go).
	ApprovedStore
}

// MovementTx is the movements part of Tx. The Lock methods read a row for
// update: on PostgreSQL no other transaction may change it until this one
// ends (SQLite's single writer gives that already).
type MovementTx interface {
	MovementReader
	Holding(ctx context.Context, cph livestock.CPH) (livestock.Holding, error)
	// InsertRequest stores r and returns its id. A TrackingID the same
	// user has used before for a request of r's type is KindConflict.
	InsertRequest(ctx context.Context, r Request) (int64, error)
	LockRequest(ctx context.Context, id int64) (Request, error)
	// LockRequests locks those of ids that exist, newest first (the lock
	// order of movements' lockorder.go), in one statement, so that the
	// LockRequest calls that follow in the transaction are answered from
	// what it read. A store may lock nothing ahead (LockRequest then locks
	// each), as it does where a failed call's locks would be let go.
	LockRequests(ctx context.Context, ids []int64) error
	// UpdateRequest writes Status, UpdatedDate, Errors, Warnings,
	// IsFullUndone, UndoSupported, DocumentRef, Species and Holdings of r.
	// (A review learns its species only when its job finds the movement.)
	UpdateRequest(ctx context.Context, r Request) error
	InsertMovement(ctx context.Context, m Movement) error
	LockMovement(ctx context.Context, id int64) (Movement, error)
	// UpdateMovement writes every field of m, replacing its devices and batches.
	UpdateMovement(ctx context.Context, m Movement) error
	// Animals returns the registered animals among identifiers, by
	// identifier; those no animal wears are absent. A movement's devices
	// are looked up together: one at a time, a transfer of 2,000 sheep
	// spent half of its job in look-ups, on the writer every other write
	// waits for. It queues behind any other transaction that has read
	// animals this way or moved them, until that one ends, so that a
	// move checked here sees every move made before it (storetest
	// AnimalsLocked); MoveAnimals queues alike.
	Animals(ctx context.Context, identifiers []string) (map[string]Animal, error)
	// MoveAnimals records that the animals wearing identifiers are all on
	// holding cph since onSince. An identifier no animal wears is
	// KindNotFound (the transaction is then to be rolled back).
	MoveAnimals(ctx context.Context, identifiers []string, cph livestock.CPH, onSince time.Time) error
	// MovementsOnRoute lists the movements from source to destination on
	// the transfer date on that side by reported and that await review,
	// are completed or accepted, with their devices and batches,
	// in id order: among them, the one a transfer from the other end may
	// report again. Few movements of one route and day are reported from
	// one side, however busy the route.
	MovementsOnRoute(ctx context.Context, source, destination livestock.CPH, on time.Time, by Side) ([]Movement, error)
	// InTransit returns, of identifiers, those in a movement awaiting
	// its destination's review, mapped to that movement's id. A movement
	// awaiting its source's consent holds no animals: its reporter does
	// not answer for them, and the source's keeper still moves them.
	InTransit(ctx context.Context, identifiers []string) (map[string]int64, error)
	// MovedAfter finds a movement that moves or holds one of identifiers
	// (one last made by its transfer, a correction or a review after
	// request id), or of batchNumbers leaving from (one made after request
	// id): one that is completed, accepted (but for the animals its review
	// rejected), or awaits its destination's review. It
	// returns what it names (a tag or a batch number) and its request's
	// id; found is false when there is none. Undoing an earlier movement of
	// those animals would leave the later one moving them from where they
	// never were.
	MovedAfter(ctx context.Context, id int64, identifiers []string, from livestock.CPH, batchNumbers []string) (what string, requestID int64, found bool, err error)
	// ArrivalsOn lists movements that brought animals onto cph with an
	// arrival date in [from, to]: completed and accepted ones (one
	// awaiting review has brought none yet).
	ArrivalsOn(ctx context.Context, cph livestock.CPH, from, to time.Time) ([]Arrival, error)
}
