package sqlite

import "github.com/drover-registry/drover/internal/store/sqldb"

// tuning is how the store drives SQLite. What it leaves unset SQLite does
// not need: the database is a file of this process, so there is no round
// trip to save (ExecBatch, NextIDs) and no network that could freeze a
// statement (ConnDeadline), and its planner needs no statistics refreshed
// for the claim or the listings (AnalyzeQueue, AnalyzeListings).
var tuning = sqldb.Tuning{
	// One committer: the writer pool has one connection, so that BEGIN
	// IMMEDIATE never waits on another writer.
	Committers: 1,
	// modernc's driver parses a query each time it runs one unprepared:
	// parsing was a quarter of the server's CPU under a load of
	// registrations, half of what the one committer spent.
	KeepStatements: true,
	// sqlite3_last_insert_rowid, which on the one writer is the row just
	// inserted: a RETURNING clause buffers the row in a temporary table
	// and the driver builds a result set to scan one integer from (see
	// sqldb's insertID).
	LastInsertID: true,
	// SQLite merges a compound SELECT with an ORDER BY as its branches
	// are read when each comes out of its index in id order: a branch
	// inside a subquery (to give it a LIMIT) it sorts whole first.
	ListBranch: `{branch}`,
	ListUnion:  ` UNION `,
	ListMerge:  `{branches} ORDER BY 1 LIMIT {limit} OFFSET {offset}`,
}
