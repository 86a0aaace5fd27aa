package sqlite

import (
	"errors"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store/sqldb"
)

// SQL that only SQLite needs. Claims, seeds and rows read for update need
// no lock of their own: the single writer connection and BEGIN IMMEDIATE
// already serialise them.
const (
	claimLock = ""
	rowLock   = ""
	seedLock  = ""
)

// maxParams bounds a multi-row insert. SQLite looks up a $N parameter by
// name in a list, so binding costs grow with the square of their number:
// many small statements beat a few large ones.
const maxParams = 250

var dialect = sqldb.Dialect{
	Name:      "sqlite",
	BindTime:  bindTime,
	Classify:  classify,
	ClaimLock: claimLock,
	RowLock:   rowLock,
	SeedLock:  seedLock,
	MaxParams: maxParams,
	// The single writer makes the counter's read and write one step.
	NextBatchID: `UPDATE id_counters SET last = last + 1 WHERE name = 'batch_movement' RETURNING last`,
}

// bindTime writes an instant as fixed-width UTC text: SQLite has no time
// type, and the driver's own formatting of time.Time is not fixed width.
func bindTime(t time.Time) any { return t.UTC().Format(sqldb.TimeFormat) }

// classify maps SQLite's result codes to error kinds. A file SQLite
// cannot open, read or write (READONLY: a read-only file, directory or
// disk, or a file moved away) is the database being unavailable, as a
// PostgreSQL that cannot be reached is: 503, try again later.
func classify(err error) livestock.Kind {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return livestock.KindInternal
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return livestock.KindConflict
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN,
		sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY:
		return livestock.KindUnavailable
	}
	return livestock.KindInternal
}

// openError reports a file that cannot be opened, as unavailable.
func openError(path string, err error) error {
	return dialect.Error("sqlite: open "+path, err)
}
