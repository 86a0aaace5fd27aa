package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/drover-registry/drover/internal/store/sqldb"
	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// tuning is how the store drives PostgreSQL: a server over the network,
// where every statement of a committer is a round trip and a frozen
// server or network must not hold callers past their deadlines.
// KeepStatements and LastInsertID are left unset: pgx prepares and keeps
// its own statements, and INSERT … RETURNING id costs nothing more there.
func tuning(maxConns int, types columnTypes, nextIDs string) sqldb.Tuning {
	return sqldb.Tuning{
		// Shared transactions, the jobs' among them, commit side by side
		// on half the pool: one committer runs its fns one statement at a
		// time, so the server's parallelism is worth having, and the rest
		// of the pool is left for reads and InTx.
		Committers: maxConns / 2,
		// A statement with a list of values is planned each time it runs,
		// for the table's size now. PostgreSQL otherwise keeps the generic
		// plan of a prepared statement, and one made while a table was
		// small is a sequential scan, kept as the table grows until its
		// statistics change: autovacuum analyzes it within a minute or so,
		// but where it is off the plan stays, and a registration would
		// read the whole animals table to check a few tags.
		PlanEachTime: pgx.QueryExecModeExec,
		// PostgreSQL merges ordered branches (Merge Append) under a
		// DISTINCT of UNION ALL, reading each only as far as the page
		// needs; each is cut at the page's end as well, which bounds it
		// when the planner sorts instead. A UNION it hashes or sorts whole.
		ListBranch: `({branch} ORDER BY {order} LIMIT {end})`,
		ListUnion:  ` UNION ALL `,
		ListMerge:  `SELECT DISTINCT id FROM ({branches}) v ORDER BY id LIMIT {limit} OFFSET {offset}`,
		// A job marked done leaves its claim index entry behind until a
		// vacuum, and a claim from the start of the index walks them all.
		// The floor is a sub-SELECT so that the planner cannot read it: a
		// floor past the end of run_at's statistics made it expect a
		// handful of rows and sort every due job from the floor instead
		// of reading the index in order up to the claim's limit.
		ClaimFloor: `run_at >= (SELECT {at}::timestamptz)`,
		// A statement in flight when the server or the network freezes
		// otherwise waits for ever: a shared transaction's context is
		// never done (groupcommit's deadline.go).
		ConnDeadline: connDeadline,
		// A group's writes go in one round trip (sqldb's deferred.go): a
		// group of 64 submissions otherwise made 256 round trips, one
		// after another on its committer.
		ExecBatch: types.execBatch,
		QueryEach: queryEach,
		NextIDs:   nextIDs,
		// A pass's completions and request updates, one statement each
		// (mergebatch.go).
		FinishJob:     finishJob,
		UpdateRequest: updateRequest,
		// The claim's and the listings' plans depend on the tables'
		// statistics, which autovacuum takes a minute or more to gather.
		AnalyzeQueue:    analyzeQueue,
		AnalyzeListings: analyzeListings,
	}
}

// Statistics are refreshed by the store only while a table is young
// (sqldb's queuestats.go): never analyzed, PostgreSQL plans the claim as a
// sort of every due job and the listings as a sort of a holding's rows.
// Once a table's statistics count more rows than the bound, it is left
// to autovacuum: an ANALYZE of the million requests of bench/movements,
// started by the writes every few thousand jobs, took a third of the
// server's time in one window, and a queue of thousands analyzed among
// a million done jobs is still claimed from the index.
const (
	analyzeQueue = `DO $$ BEGIN
		IF (SELECT reltuples < 10000 FROM pg_class WHERE oid = 'jobs'::regclass) THEN ANALYZE jobs; END IF;
	END $$`
	analyzeListings = `DO $$ BEGIN
		IF (SELECT reltuples < 100000 FROM pg_class WHERE oid = 'requests'::regclass) THEN
			ANALYZE requests, request_holdings;
		END IF;
	END $$`
)

// finishJob and updateRequest are sqldb's completion of a job and its
// same-holdings update of a request, with their arguments in one row of a
// VALUES list: the rows of a pass merge into one statement. The casts
// type the list, whose first row PostgreSQL would otherwise read as text.
const (
	finishJob = `UPDATE jobs SET state = 'done', finished_at = v.at
		FROM (VALUES ($1::bigint, $2::timestamptz)) AS v (id, at) WHERE jobs.id = v.id`
	updateRequest = `UPDATE requests SET status = v.status, updated_date = v.updated_date, errors = v.errors,
		warnings = v.warnings, is_full_undone = v.is_full_undone, undo_supported = v.undo_supported,
		document_ref = v.document_ref, species = v.species
		FROM (VALUES ($1::bigint, $2::text, $3::timestamptz, $4::text, $5::text, $6::boolean, $7::boolean, $8::text,
			$9::text, $10::text)) AS v (id, status, updated_date, errors, warnings, is_full_undone, undo_supported,
			document_ref, holdings, species)
		WHERE requests.id = v.id AND requests.holdings = v.holdings`
)

// nextIDsSQL takes ids ahead for the requests and jobs a group inserts,
// from the sequences behind requests.id and jobs.id, read once at Open.
const nextIDsSQL = `SELECT nextval(%s), nextval(%s) FROM generate_series(1, $1)`

// sequencesSQL names the sequences behind requests.id and jobs.id, with
// their schema.
const sequencesSQL = `SELECT pg_get_serial_sequence('requests', 'id'), pg_get_serial_sequence('jobs', 'id')`

// readNextIDs writes nextIDsSQL with the sequences' names as literals,
// which PostgreSQL resolves once, when it parses the statement;
// pg_get_serial_sequence in the statement would look both up again for
// every id.
func readNextIDs(ctx context.Context, db *sql.DB) (string, error) {
	var requests, jobs sql.NullString
	if err := db.QueryRowContext(ctx, sequencesSQL).Scan(&requests, &jobs); err != nil {
		return "", err
	}
	if !requests.Valid || !jobs.Valid {
		return "", errors.New("postgres: requests.id or jobs.id has no sequence")
	}
	return fmt.Sprintf(nextIDsSQL, quoteLiteral(requests.String), quoteLiteral(jobs.String)), nil
}

// quoteLiteral writes s as an SQL string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// execBatch sends stmts as one pgx batch: one write to the socket, the
// server runs them in turn, one read of the answers.
// queryEach is sqldb.Tuning.QueryEach: pgx scans each column straight
// into its destination, where database/sql has it make a driver value
// first.
func queryEach(ctx context.Context, driverConn any, query string, args []any, row func(scan func(dest ...any) error) error) error {
	c, ok := driverConn.(*stdlib.Conn)
	if !ok {
		return fmt.Errorf("postgres: a connection of %T, not pgx's stdlib", driverConn)
	}
	rows, err := c.Conn().Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return sqldb.ReadRows(rows, row)
}

func (types columnTypes) execBatch(ctx context.Context, driverConn any, stmts []groupcommit.Statement) error {
	c, ok := driverConn.(*stdlib.Conn)
	if !ok {
		return fmt.Errorf("postgres: a connection of %T, not pgx's stdlib", driverConn)
	}
	var b pgx.Batch
	sent := mergeRows(stmts, types) // mergebatch.go
	for _, m := range sent {
		b.Queue(m.query, m.args...)
	}
	br := c.Conn().SendBatch(ctx, &b)
	for _, m := range sent {
		tag, err := br.Exec()
		if err != nil {
			_ = br.Close()
			return err
		}
		share(stmts[m.from:m.to], tag.RowsAffected())
	}
	return br.Close()
}

// share gives each of stmts, sent as one statement that changed n rows,
// its count: what it wanted when n is what they wanted together, else a
// count none can want, so that the group's pass gives up and runs again
// with savepoints, where each write answers for itself.
func share(stmts []groupcommit.Statement, n int64) {
	if len(stmts) == 1 {
		stmts[0].Affected = n
		return
	}
	var want int64
	for _, st := range stmts {
		want += st.Want
	}
	for i := range stmts {
		stmts[i].Affected = -2
		if n == want {
			stmts[i].Affected = stmts[i].Want
		}
	}
}

// connDeadline sets the deadline of the socket under a connection of
// pgx's stdlib: a read or write past it fails, and pgx closes the
// connection. pgx sets a socket's deadline itself only while cancelling
// a context, and shared transactions run under one that is never done.
func connDeadline(driverConn any, t time.Time) error {
	c, ok := driverConn.(*stdlib.Conn)
	if !ok {
		return fmt.Errorf("postgres: a connection of %T, not pgx's stdlib", driverConn)
	}
	return c.Conn().PgConn().Conn().SetDeadline(t)
}
