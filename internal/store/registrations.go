package store

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// RegistrationStatus is where a registration request is. Its stored
// values are those of RequestStatus, so that both kinds of request keep
// one vocabulary: a registration that took effect is Success, one that
// broke a rule is Fail. What the registration interface shows for each is
// internal/registration's choice.
type RegistrationStatus string

const (
	RegistrationPending   = RegistrationStatus(StatusPending)
	RegistrationCompleted = RegistrationStatus(StatusSuccess)
	RegistrationFailed    = RegistrationStatus(StatusFail)
)

// Registration is one animal registration request: kept for both modes,
// so that a request status can be read and a retry answered; in async
// mode it is the queue entry its job decides.
type Registration struct {
	ID            string // a UUID
	UserName      string
	Async         bool
	Status        RegistrationStatus
	RequestDate   time.Time
	UpdatedDate   time.Time
	NextPollAt    time.Time // the earliest time its status may be polled again
	CorrelationID string
	Body          []byte // the request body as received
	Identifier    string // the animal registered, once Completed
	Errors        []livestock.FieldError
	Warnings      []livestock.FieldError
}

// RegistrationStore is the registration part of Store.
type RegistrationStore interface {
	Registration(ctx context.Context, id string) (Registration, error)
	// TakePoll records a poll of registration id at now: when now is at or
	// after its NextPollAt the poll is allowed, NextPollAt becomes next and
	// ok is true; otherwise nothing changes, ok is false and NextPollAt
	// (in the returned record) says when to come back. Atomic, so two
	// replicas cannot both allow one poll.
	TakePoll(ctx context.Context, id string, now, next time.Time) (r Registration, ok bool, err error)
}

// RegistrationTx is the registration part of Tx.
type RegistrationTx interface {
	InsertRegistration(ctx context.Context, r Registration) error
	LockRegistration(ctx context.Context, id string) (Registration, error)
	// UpdateRegistration writes Status, UpdatedDate, Identifier, Errors and Warnings.
	UpdateRegistration(ctx context.Context, r Registration) error
	// LookUpRegistration reads in one statement what a registration's
	// rules look at: whether an animal wears identifier already, how it
	// was issued, and the registered parents named ("" for none).
	LookUpRegistration(ctx context.Context, identifier string, parents Parents) (RegistrationLookup, error)
	// RegisterAnimal adds an animal with its registration details; an
	// identifier registered already is KindConflict.
	RegisterAnimal(ctx context.Context, a Animal) error
}

// RegistrationLookup is what a registration's rules read of the registry
// (RegistrationTx.LookUpRegistration).
type RegistrationLookup struct {
	Registered bool       // an animal wears the identifier already
	Tag        *IssuedTag // the identifier as issued; nil when it never was
	Flock      Flock      // the flock or herd Tag's mark names (every issued mark names one)
	// Dam, GeneticDam and Sire are the parents asked for, nil when not
	// asked for or not registered. Only where each is and what it is are
	// read: Identifier, Species, Sex, BirthDate, CPH, OnSince and State.
	Dam, GeneticDam, Sire *Animal
}

// Parents are the identifiers of the parents a registration names, as
// given; "" for one not named.
type Parents struct {
	BirthDam, GeneticDam, Sire string
}

// Flock is a flock or herd: a mark issued to a holding for one species.
type Flock struct {
	Mark    livestock.FlockMark
	Species livestock.Species
	CPH     livestock.CPH
}

// IssuedTag is an identifier issued to a flock or herd, whether or not an
// animal wears it yet.
type IssuedTag struct {
	Identifier livestock.Tag // printed "UK0130181 00001", "UK442501300001"
	Mark       livestock.FlockMark
	Species    livestock.Species
	IssuedOn   time.Time // a date
}

// Animal is a registered animal, where it is and since when.
type Animal struct {
	Identifier livestock.Tag
	Species    livestock.Species
	Sex        livestock.Sex
	BirthDate  time.Time
	CPH        livestock.CPH // the holding it is on
	OnSince    time.Time     // the date it arrived there (or was born there)
	State      livestock.AnimalState

	// Registration details; empty for animals that arrived by the seed.
	Name               string
	ProductionType     string
	Breed              string
	BirthSite          string // the birth site's identifier
	BirthDam           string
	GeneticDam         string
	Sire               string
	OriginalIdentifier string
	IdentificationDate time.Time
	RegistrationDate   time.Time
	ReceivedDate       time.Time // when the service received the registration
	DeathDate          time.Time
	Category           string // "birthRegistration" or "registration"
	MovementRestricted bool   // registered without a passport: may not leave its holding
	RestrictionReason  string
	RegisteredBy       string // user name
	Record             []byte // the registration body as received (normalised JSON)
}
