package sqldb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"syscall"

	"github.com/drover-registry/drover/internal/livestock"
)

// wrap gives a store error its operation and its kind; use it as
// defer s.wrap(&err, "Op"). Errors returned by a caller's function (InTx,
// RunJob) must not pass through it.
func (s *Store) wrap(errp *error, op string) {
	if *errp != nil {
		*errp = s.d.Error(op, *errp)
	}
}

// Error gives err its operation and its kind: a driver error the dialect
// recognises becomes a *livestock.Error whose Err carries the cause, and
// anything else stays an internal error.
func (d *Dialect) Error(op string, err error) error {
	if err == nil {
		return nil
	}
	var le *livestock.Error
	if errors.As(err, &le) {
		if le.Err != nil {
			c := *le
			c.Err = fmt.Errorf("store: %s: %w", op, le.Err)
			return &c
		}
		return err
	}
	switch kind := d.kind(err); kind {
	case livestock.KindInternal:
		return fmt.Errorf("store: %s: %w", op, err)
	default:
		return &livestock.Error{Kind: kind, Detail: detail(kind), Err: fmt.Errorf("store: %s: %w", op, err)}
	}
}

// kind classifies err: what every database/sql driver shares first, then
// what the dialect knows about its own errors.
func (d *Dialect) kind(err error) livestock.Kind {
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, context.Canceled),
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, sql.ErrConnDone),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET):
		return livestock.KindUnavailable
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return livestock.KindUnavailable
	}
	if d.Classify != nil {
		return d.Classify(err)
	}
	return livestock.KindInternal
}

func detail(k livestock.Kind) string {
	switch k {
	case livestock.KindUnavailable:
		return "the database is unavailable; try again later"
	case livestock.KindConflict:
		return "the record already exists"
	}
	return ""
}

// unavailable marks err as a database that cannot serve, whatever it is.
func unavailable(err error) error {
	return &livestock.Error{Kind: livestock.KindUnavailable, Detail: detail(livestock.KindUnavailable), Err: err}
}

func notFound(format string, args ...any) error {
	return livestock.Errorf(livestock.KindNotFound, format, args...)
}

// rollback ends tx after a failure; its own error adds nothing useful.
func rollback(tx *sql.Tx) { _ = tx.Rollback() }
