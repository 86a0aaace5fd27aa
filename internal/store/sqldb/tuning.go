package sqldb

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// Tuning is how the store drives one database fast: which of the store's
// ways of saving work that database needs, and the driver-level hooks they
// run through. None of it changes what a query means; each dialect package
// sets its own and says beside each hook why that database needs it.
type Tuning struct {
	// Committers is how many shared transactions (InSharedTx) may run at
	// once, each on a connection of the writer; 0 means 1.
	Committers int
	// KeepStatements asks the store to prepare each query once per
	// connection and keep it (groupcommit's pool.go).
	KeepStatements bool
	// LastInsertID reads a new row's id from the driver's result of the
	// INSERT (tx.go, insertID) rather than from a RETURNING id.
	LastInsertID bool
	// PlanEachTime, if set, goes before the arguments of a statement with
	// a list of values (identifier IN (…): eachOf, MoveAnimals) to have
	// the driver plan it each time it runs rather than keep one plan.
	PlanEachTime any
	// ConnDeadline sets the deadline of the network connection under
	// driverConn (a connection of database/sql's Conn.Raw); the zero time
	// clears it. Shared transactions run under their callers' latest
	// deadline through it (groupcommit's deadline.go); nil: they have
	// none.
	ConnDeadline func(driverConn any, t time.Time) error
	// ExecBatch sends stmts on driverConn (a connection of database/sql's
	// Conn.Raw, in a transaction) in one round trip, in order, sets each
	// one's Affected, and stops at the first that fails; nil when the
	// store is to send one statement at a time (deferred.go).
	ExecBatch func(ctx context.Context, driverConn any, stmts []groupcommit.Statement) error
	// QueryEach runs query on driverConn (a connection of database/sql's
	// Conn.Raw) and calls row for each row it returns, with the scan of
	// that row; nil when the store is to read rows through database/sql.
	// A listing's page is a hundred rows of eighteen columns, and
	// database/sql turns each column into an interface value and back,
	// under a lock, which is most of what reading a page costs the server.
	QueryEach func(ctx context.Context, driverConn any, query string, args []any, row func(scan func(dest ...any) error) error) error
	// FinishJob and UpdateRequest are the deferred forms of a job's
	// completion (id $1, finished at $2) and of UpdateRequest's
	// same-holdings update (the arguments of updateRequestSameHoldingsSQL),
	// written as one row of a VALUES list so that ExecBatch can merge a
	// pass's rows into one statement ("" sends the plain statements).
	FinishJob, UpdateRequest string
	// NextIDs takes $1 new ids of requests and of jobs, as rows of those
	// two columns, for the inserts ExecBatch sends ("" when it cannot).
	NextIDs string
	// AnalyzeQueue refreshes the planner's statistics of the jobs table as
	// the queue grows ("" when the planner needs none; queuestats.go).
	AnalyzeQueue string
	// AnalyzeListings refreshes the statistics of the tables the listings
	// read while they are young ("" when the planner needs none;
	// queuestats.go).
	AnalyzeListings string
	// ListBranch, ListUnion and ListMerge are how a listing merges its
	// branches (each month's of the user's own requests, of a traced
	// holding's or of every request: requestlist.go) into one page of
	// ids in id order, so that each branch is read only as far as the page needs. ListBranch is one
	// branch: {branch}, a SELECT of the column id in id order by its
	// index column {order}. ListMerge takes the page ({limit}, {offset};
	// {end} their sum) from the branches ({branches}), joined by
	// ListUnion, without duplicates. All three are required: the forms
	// differ by dialect, and neither's is valid SQL on the other.
	ListBranch, ListUnion, ListMerge string
	// ClaimFloor has a claim start reading the claim index at the first
	// job the last claim took (claimfloor.go), on a database that keeps
	// done jobs' entries among the available ones until a vacuum: a
	// condition on run_at, {at} the floor's ("" reads from the start).
	ClaimFloor string
}

// check reports a field of t that the store cannot run without: the
// listing merge's three forms, each with the placeholder it is filled in
// by.
func (t Tuning) check() error {
	for _, f := range []struct{ name, form, needs string }{
		{"ListBranch", t.ListBranch, "{branch}"},
		{"ListUnion", t.ListUnion, ""},
		{"ListMerge", t.ListMerge, "{branches}"},
	} {
		if f.form == "" {
			return fmt.Errorf("sqldb: Tuning.%s is required", f.name)
		}
		if !strings.Contains(f.form, f.needs) {
			return fmt.Errorf("sqldb: Tuning.%s is %q, without %s", f.name, f.form, f.needs)
		}
	}
	return nil
}
