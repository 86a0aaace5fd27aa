// Package store defines how Drover keeps its records: the Store interface,
// the records that are not domain types (signing keys, grants, jobs,
// movement requests, movements, replies, registrations), and the errors a store returns. Two implementations live beneath it, sqlite/
// (the embedded default) and postgres/ (for several replicas on one
// server); storetest/ is the one conformance suite both must pass.
//
// A store returns *livestock.Error of KindNotFound when a thing is missing
// (never a nil value with a nil error) and KindUnavailable when the database
// cannot be reached.
package store

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// GroupStats are running totals of the group commit since the store
// opened. Calls over commits is the mean group; Commit.Sum over commits,
// the mean commit (an fsync on SQLite, a WAL flush and a round trip on
// PostgreSQL).
type GroupStats struct {
	Commits int64 // shared transactions committed
	Calls   int64 // calls whose writes those commits kept
	Failed  int64 // shared transactions that could not commit
	// Commit is the committed transactions by the time their COMMIT took:
	// its tail is the disk's (a mean hides a stall of a second among
	// thousands of fast commits). Group is the same transactions by the
	// time they held their connection, from BEGIN to the end of COMMIT:
	// about what a caller waits for once its group has begun.
	Commit, Group Histogram
}

// GroupBuckets are the upper bounds of the histograms of GroupStats.
var GroupBuckets = [...]time.Duration{
	250 * time.Microsecond, 500 * time.Microsecond, time.Millisecond, 2500 * time.Microsecond,
	5 * time.Millisecond, 10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2500 * time.Millisecond,
}

// Histogram counts durations by GroupBuckets: Counts[i] those over the
// bound before GroupBuckets[i] and at most it, the last those over every
// bound. Sum is their total.
type Histogram struct {
	Counts [len(GroupBuckets) + 1]int64
	Sum    time.Duration
}

// Store is everything the service keeps. Methods that change more than one
// row run in one transaction; InTx lets a caller group its own writes with a
// job so that both are committed, or neither, and InSharedTx does the same
// for many concurrent callers at the cost of one commit.
type Store interface {
	// Dialect names the database: "sqlite" or "postgres".
	Dialect() string
	// GroupStats counts the shared transactions (InSharedTx, RunJob,
	// RetryJob) this process has committed: for metrics.
	GroupStats() GroupStats
	// Ready reports nil when the database answers and every migration has
	// been applied.
	Ready(ctx context.Context) error
	Close() error

	// Users and holdings.
	UserBySubject(ctx context.Context, subject string) (livestock.User, error)
	UserByName(ctx context.Context, name string) (livestock.User, error)
	// PasswordHash returns the bcrypt hash of a user's password; users who
	// sign in only through an external issuer have none (KindNotFound).
	PasswordHash(ctx context.Context, userName string) ([]byte, error)
	Holding(ctx context.Context, cph livestock.CPH) (livestock.Holding, error)

	// Seed writes the sandbox's users, holdings, flocks, herds and animals.
	// It is idempotent and safe to run from several replicas at once; it
	// reports whether this call created the data.
	Seed(ctx context.Context, s Seed) (created bool, err error)
	// ClaimMode records m as what the database is for unless a mode is
	// recorded already, and returns the mode recorded: the first claim
	// fixes it for good, so replicas started at once agree.
	ClaimMode(ctx context.Context, m Mode) (Mode, error)

	// Signing keys of the sandbox issuer, shared by every replica.
	SigningKeys(ctx context.Context) ([]SigningKey, error)
	// AddSigningKey stores k unless a key with its ID exists.
	AddSigningKey(ctx context.Context, k SigningKey) error

	// Authorization codes and refresh tokens are single use: Take marks one
	// used and returns it, or KindNotFound when it is unknown, used or
	// expired at now.
	AddAuthCode(ctx context.Context, c AuthCode) error
	TakeAuthCode(ctx context.Context, codeHash string, now time.Time) (AuthCode, error)
	AddRefreshToken(ctx context.Context, r RefreshToken) error
	TakeRefreshToken(ctx context.Context, tokenHash string, now time.Time) (RefreshToken, error)
	// RefreshToken reads a refresh token TakeRefreshToken would take,
	// leaving it unused, or KindNotFound: a refresh is checked before its
	// token is spent.
	RefreshToken(ctx context.Context, tokenHash string, now time.Time) (RefreshToken, error)
	// RevokeRefreshChain spends, at now, every unspent token of the chain
	// of tokenHash when tokenHash was spent already (its reuse means it was
	// stolen), and says how many; an unknown or unspent token revokes none.
	RevokeRefreshChain(ctx context.Context, tokenHash string, now time.Time) (int64, error)

	// InTx runs fn in one write transaction, committed when fn returns nil.
	InTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	// InSharedTx is InTx for many small writers at once (group commit): fn
	// may share its transaction with the fns of other callers that arrive
	// at the same time, so that they pay for one commit (an fsync, a WAL
	// flush) between them. Each fn runs inside its own SAVEPOINT: an error
	// (or a panic) in fn rolls back only fn's own writes and is returned
	// only to its caller, as it is (a panic as an error). The transaction
	// commits once for the whole group, and InSharedTx returns nil only
	// after that commit succeeded, so an acknowledged write is durable; if
	// the commit fails, every caller whose fn succeeded gets that error.
	//
	// A caller whose ctx ends before its fn has started gets ctx's error
	// (KindUnavailable) and fn never runs. Once fn has started its outcome
	// stands, and InSharedTx waits for it whatever ctx does, so that an
	// error always means fn's writes were not committed. fn is given ctx's
	// values but not its cancellation: cancelling one statement would
	// abort the transaction the whole group shares. fn must not block on
	// anything but the database, and must not call other methods of the
	// store: it holds the writer. It runs on another goroutine, so a test
	// must not call t.Fatal in it. After Close, InSharedTx fails at once.
	// The shared transaction ends at the latest deadline of the callers
	// sharing it (never, if one has none), so that a database that stops
	// answering mid-statement cannot hold them past it: it is rolled back
	// and each caller gets its deadline's error (KindUnavailable). Jobs
	// (RunJob, RetryJob) sharing it with InSharedTx callers do not extend
	// it: they are rolled back with the rest and run again later.
	//
	// fn may be called more than once: when another fn of its group
	// fails, the group's transaction is rolled back and run again, each fn
	// then in a savepoint of its own. Only the last call's writes and
	// outcome stand, so fn must set what it hands back to its caller afresh
	// on every call.
	InSharedTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error

	// RunJob claims the oldest due job of one of kinds and calls fn inside
	// the claiming transaction, so a job's effects and its completion are
	// committed together: a job is applied exactly once, whatever crashes.
	// When fn returns nil the job is marked done; when it returns an error
	// fn's writes are rolled back, the job is left as it was, and the error
	// is returned. ran is false when no job was due. The claim, fn and the
	// completion run as one InSharedTx call, with its contract: they may
	// share a transaction and its commit with other jobs and submissions,
	// RunJob returns only after that commit, fn is given ctx's values but
	// not its cancellation, and fn must not call other methods of the store
	// that write. As with InSharedTx, fn may be called more than once, for
	// the same job or, on PostgreSQL, another; only the last call stands.
	// Replicas on PostgreSQL skip jobs another holds.
	RunJob(ctx context.Context, kinds []string, now time.Time, fn func(ctx context.Context, tx Tx, j Job) error) (ran bool, err error)
	// RetryJob counts a failed attempt and makes the job due again at runAt,
	// or marks it failed when final is true. It may share a commit as
	// InSharedTx does.
	RetryJob(ctx context.Context, id int64, runAt time.Time, lastError string, final bool) error
	// JobCounts reports the number of jobs in every state. It reads every
	// job: for tests and the operator, not for every scrape of /metrics.
	JobCounts(ctx context.Context) (map[JobState]int, error)
	// JobBacklog reports the jobs available (the queue) and failed, on
	// the claim index alone, whatever the number done: for metrics.
	JobBacklog(ctx context.Context) (map[JobState]int, error)
	// Job returns one job, mainly for tests and the operator.
	Job(ctx context.Context, id int64) (Job, error)
	// DeleteDoneJobsBefore deletes at most limit done jobs that were due
	// before before, oldest first, and reports how many it deleted: a done
	// job has served its purpose (its request's row holds the outcome),
	// and kept for ever they would grow the table by one row a request
	// (internal/retention). Available and failed jobs are never deleted.
	// Like DeleteRepliesBefore it works in bounded batches, and replicas
	// may run it at the same time.
	DeleteDoneJobsBefore(ctx context.Context, before time.Time, limit int) (deleted int, err error)

	// Movement requests, movements and replies (movements.go).
	MovementStore
	// Animal registration requests (registrations.go).
	RegistrationStore
	// Outbreak tracing's reads (trace.go).
	TraceStore
}

// Tx is the write side of one transaction. Later interfaces add their own
// writes here, so that a request, its job and its audit line commit as one.
type Tx interface {
	// EnqueueJob adds a job, due at j.RunAt (now when zero).
	EnqueueJob(ctx context.Context, j NewJob) (int64, error)
	// Audit appends a line to the audit log.
	Audit(ctx context.Context, a AuditEntry) error
	// AuditEntries lists the audit lines of one subject, oldest first.
	AuditEntries(ctx context.Context, subject string) ([]AuditEntry, error)

	// Movement requests, movements and replies (movements.go).
	MovementTx
	// Animal registrations (registrations.go).
	RegistrationTx
}

// JobState is where a job is in its life.
type JobState string

const (
	JobAvailable JobState = "available" // due now or later
	JobDone      JobState = "done"      // applied
	JobFailed    JobState = "failed"    // gave up after its last attempt
)

// NewJob is a job to enqueue.
type NewJob struct {
	Kind        string
	Payload     []byte // JSON, read by the job's handler
	RunAt       time.Time
	MaxAttempts int // 0 means the default, 25
}

// Job is a stored job.
type Job struct {
	ID          int64
	Kind        string
	Payload     []byte
	State       JobState
	Attempts    int // failed attempts so far
	MaxAttempts int
	RunAt       time.Time
	LastError   string
	CreatedAt   time.Time
	FinishedAt  time.Time // zero until done or failed
}

// AuditEntry records who did what to which record.
type AuditEntry struct {
	At            time.Time
	UserName      string
	Action        string
	Subject       string // the record acted on, e.g. "job:42" or "TransferRequests(7)"
	CorrelationID string
	Detail        string
}

// SigningKey is one private key of the sandbox issuer, as a JWK.
type SigningKey struct {
	ID         string // the JWK "kid"
	Algorithm  string // e.g. "ES256"
	PrivateJWK []byte
	CreatedAt  time.Time
}

// AuthCode is an authorization code of the sandbox issuer (PKCE).
type AuthCode struct {
	CodeHash      string // SHA-256 of the code, hex; the code itself is never stored
	UserName      string
	ClientID      string
	RedirectURI   string
	Challenge     string // PKCE code_challenge
	ChallengeType string // "S256" or "plain"
	Scope         string
	ExpiresAt     time.Time
}

// RefreshToken is a refresh token of the sandbox issuer.
type RefreshToken struct {
	TokenHash string // SHA-256 of the token, hex
	UserName  string
	ClientID  string
	Scope     string
	ExpiresAt time.Time
	Chain     string // hash of the chain's first token; empty on Add starts a chain
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

// Flock is a flock or herd: a mark issued to a holding for one species.
type Flock struct {
	Mark    string // 6 digits
	Species string // "Sheep", "Goats", "Deer", "Cattle"
	CPH     livestock.CPH
}

// IssuedTag is an identifier issued to a flock or herd, whether or not an
// animal wears it yet.
type IssuedTag struct {
	Identifier string // printed form: "UK0130181 00001", "UK442501300001"
	Mark       string
	Species    string
	IssuedOn   time.Time // a date
}

// Animal is a registered animal, where it is and since when.
type Animal struct {
	Identifier string
	Species    string
	Sex        string // "male" or "female"
	BirthDate  time.Time
	CPH        livestock.CPH // the holding it is on
	OnSince    time.Time     // the date it arrived there (or was born there)
	State      string        // "registered", "dead", "lost", "stolen"

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
