package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store/sqldb"
)

// SQL that only PostgreSQL needs.
const (
	// claimLock lets replicas claim jobs side by side: a row another
	// transaction holds is skipped rather than waited for.
	claimLock = ` FOR UPDATE SKIP LOCKED`
	// rowLock holds the rows LockRequest and LockMovement read until the
	// transaction ends.
	rowLock = ` FOR UPDATE`
	// seedLock queues seeders of one schema behind each other until commit,
	// so that exactly one finds the users table empty.
	seedLock = `SELECT pg_advisory_xact_lock(hashtext('drover.seed.' || coalesce(current_schema(), '')))`
	// animalsLock queues the transactions of one schema that check or
	// make a move of animals (sqldb.Dialect.AnimalsLock).
	animalsLock = `SELECT pg_advisory_xact_lock(hashtext('drover.animals.' || coalesce(current_schema(), '')))`
)

// maxParams bounds a multi-row insert, well under the protocol's 65535.
const maxParams = 8000

var dialect = sqldb.Dialect{
	Name:      "postgres",
	BindTime:  bindTime,
	Classify:  classify,
	ClaimLock: claimLock,
	RowLock:   rowLock,
	SeedLock:  seedLock,
	// Two jobs of one sheep on two committers had both moved it.
	AnimalsLock: animalsLock,
	NextBatchID: `SELECT nextval('movement_batch_ids')`,
	MaxParams:   maxParams,
	// A statement with a list of values is planned each time it runs,
	// for the table's size now (see sqldb.Dialect).
	PlanEachTime: pgx.QueryExecModeExec,
	// The claim's plan depends on the jobs table's statistics; see
	// sqldb's queuestats.go.
	AnalyzeQueue:    analyzeQueue,
	AnalyzeListings: analyzeListings,
	ConnDeadline:    connDeadline,
	// A group's writes go in one round trip (sqldb's deferred.go).
	ExecBatch:  execBatch,
	NextIDs:    nextIDs,
	OverrideID: `OVERRIDING SYSTEM VALUE`,
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

// nextIDs takes ids ahead for the requests and jobs a group inserts.
const nextIDs = `SELECT nextval(pg_get_serial_sequence('requests', 'id')), nextval(pg_get_serial_sequence('jobs', 'id'))
	FROM generate_series(1, $1)`

// execBatch sends stmts as one pgx batch: one write to the socket, the
// server runs them in turn, one read of the answers.
func execBatch(ctx context.Context, driverConn any, stmts []sqldb.Statement) error {
	c, ok := driverConn.(*stdlib.Conn)
	if !ok {
		return fmt.Errorf("postgres: a connection of %T, not pgx's stdlib", driverConn)
	}
	var b pgx.Batch
	for _, st := range stmts {
		b.Queue(st.Query, st.Args...)
	}
	br := c.Conn().SendBatch(ctx, &b)
	for i := range stmts {
		tag, err := br.Exec()
		if err != nil {
			_ = br.Close()
			return err
		}
		stmts[i].Affected = tag.RowsAffected()
	}
	return br.Close()
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

// bindTime binds an instant as a time.Time, which pgx sends as timestamptz.
func bindTime(t time.Time) any { return t.UTC() }

// classify maps PostgreSQL's SQLSTATE codes and pgx's connection errors to
// error kinds.
func classify(err error) livestock.Kind {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505": // unique_violation
			return livestock.KindConflict
		case strings.HasPrefix(pe.Code, "08"), // connection_exception
			strings.HasPrefix(pe.Code, "53"),  // insufficient_resources (too many connections)
			strings.HasPrefix(pe.Code, "57P"), // admin_shutdown, cannot_connect_now…
			pe.Code == "40001",                // serialization_failure
			pe.Code == "40P01",                // deadlock_detected
			pe.Code == "55P03",                // lock_not_available
			pe.Code == "57014":                // query_canceled (statement_timeout)
			return livestock.KindUnavailable
		}
		return livestock.KindInternal
	}
	// A connection that could not be made, timed out, or was found closed
	// or cut (the server or the network dropped it, in the pool or in use);
	// pgx marks as safe to retry whatever failed before the server saw it.
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || pgconn.Timeout(err) || errors.Is(err, pgconn.ErrConnClosed) || pgconn.SafeToRetry(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return livestock.KindUnavailable
	}
	return livestock.KindInternal
}

// wrapOpen reports a failure to connect or migrate with its kind: a server
// that cannot be reached is unavailable.
func wrapOpen(op string, err error) error {
	return dialect.Error("postgres: "+op, err)
}
