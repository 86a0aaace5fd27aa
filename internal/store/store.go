// Package store defines how Drover keeps its records: the Store interface,
// composed of one interface per concern (users, grants, seed, jobs,
// transactions, health, movements, replies, registrations, tracing), the
// records that are not domain types, and the errors a store returns. Two
// implementations live beneath it, sqlite/ (the embedded default) and
// postgres/ (for several replicas on one server); storetest/ is the one
// conformance suite both must pass.
//
// A consumer takes the concerns it uses, not Store, so that its type says
// what it touches.
//
// A store returns *livestock.Error of KindNotFound when a thing is missing
// (never a nil value with a nil error) and KindUnavailable when the database
// cannot be reached.
package store

// Store is everything the service keeps: what cmd/drover opens and wires
// into the consumers, each of which takes only its concerns.
type Store interface {
	// Which database, whether it answers, its group commit (health.go).
	HealthStore
	// Users and holdings (users.go).
	UserStore
	// Seeding and the database's mode (users.go).
	SeedStore
	// The sandbox issuer's keys, codes and tokens (grants.go).
	GrantStore
	// Transactions: InTx and InSharedTx (tx.go).
	TxStore
	// Background jobs (jobs.go).
	JobStore
	// Movement requests and movements (movements.go).
	MovementStore
	// Replies kept for retries (replies.go).
	ReplyStore
	// Animal registration requests (registrations.go).
	RegistrationStore
	// Outbreak tracing's reads (trace.go).
	TraceStore
}
