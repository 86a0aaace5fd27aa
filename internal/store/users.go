package store

import (
	"context"

	"github.com/drover-registry/drover/internal/livestock"
)

// UserStore reads the users who act for holdings, and the holdings: what
// authentication and the rules on who may do what look up.
type UserStore interface {
	UserBySubject(ctx context.Context, subject string) (livestock.User, error)
	UserByName(ctx context.Context, name string) (livestock.User, error)
	// PasswordHash returns the bcrypt hash of a user's password; users who
	// sign in only through an external issuer have none (KindNotFound).
	PasswordHash(ctx context.Context, userName string) ([]byte, error)
	Holding(ctx context.Context, cph livestock.CPH) (livestock.Holding, error)
}

// SeedStore fills a database with users, holdings and animals (the
// sandbox's, or an operator's import) and records what the database is
// for.
type SeedStore interface {
	// Seed writes the sandbox's users, holdings, flocks, herds and animals.
	// It is idempotent and safe to run from several replicas at once; it
	// reports whether this call created the data.
	Seed(ctx context.Context, s Seed) (created bool, err error)
	// ClaimMode records m as what the database is for unless a mode is
	// recorded already, and returns the mode recorded: the first claim
	// fixes it for good, so replicas started at once agree.
	ClaimMode(ctx context.Context, m Mode) (Mode, error)
	// Mode is the mode recorded, "" when none is yet: a look before a
	// claim, for a server that must reach its issuer before claiming.
	Mode(ctx context.Context) (Mode, error)
}

// Mode is what a database is for, recorded in it by the first command
// with a mode (drover serve, drover import) to use it, or by migration
// 00014 from the users of a database made before modes were recorded.
type Mode string

const (
	// ModeSandbox holds the sandbox's test users (password = user name)
	// and data, served by the sandbox issuer.
	ModeSandbox Mode = "sandbox"
	// ModeProduction holds real keepers, signed in by an external issuer.
	ModeProduction Mode = "production"
)

// Seed is data to add: the sandbox's (made by package sandbox) or an
// operator's import of holdings and users. Seed adds what is missing and,
// unless Update is set, never changes a row that exists.
type Seed struct {
	// Update makes the holdings and users that exist take the values
	// given: a holding its type and MHS; a user their subject, role,
	// password hash (kept as it was when none is given) and exactly the
	// holdings listed, so that an empty list withdraws them all. Flocks,
	// tags and animals are only ever added. Each name may appear once.
	Update bool
	// Sandbox marks the sandbox's test data: Seed writes it only into a
	// database whose mode is ModeSandbox, and is KindConflict otherwise.
	Sandbox  bool
	Users    []SeedUser
	Holdings []livestock.Holding
	Flocks   []Flock
	Animals  []Animal
	Tags     []IssuedTag
}

// SeedUser is a user with a password and the holdings they act for.
type SeedUser struct {
	Name         string
	Subject      string // the token subject that maps to this user; Name when empty
	Role         livestock.Role
	PasswordHash []byte
	Holdings     []livestock.CPH
}
