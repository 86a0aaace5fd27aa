package postgres

import (
	"errors"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

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
	// The deferred inserts of a group set the ids taken ahead (nextIDs).
	OverrideID: `OVERRIDING SYSTEM VALUE`,
}

// bindTime binds an instant as a time.Time, which pgx sends as timestamptz.
func bindTime(t time.Time) any { return t.UTC() }

// classify maps PostgreSQL's SQLSTATE codes and pgx's connection errors to
// error kinds.
func classify(err error) livestock.Kind {
	// A connection that could not be made is unavailable whatever the
	// server said when it refused it: a database not accepting
	// connections (55000), gone (3D000), or refusing the role (28000).
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return livestock.KindUnavailable
	}
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
	// A connection that timed out, or was found closed or cut (the server
	// or the network dropped it, in the pool or in use); pgx marks as safe
	// to retry whatever failed before the server saw it.
	if pgconn.Timeout(err) || errors.Is(err, pgconn.ErrConnClosed) || pgconn.SafeToRetry(err) ||
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
