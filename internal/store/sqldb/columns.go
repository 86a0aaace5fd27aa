package sqldb

import (
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/odata"
)

// The allow-lists of $filter: a field not named here cannot be filtered
// on, and a column is only ever written into SQL from here.

// column is a filterable field as stored: its column and how it compares.
type column struct {
	// name is the column, or, in parentheses, the whole SQL expression of
	// the field, written as it is: a value kept in another table than the
	// one filtered.
	name string
	kind colKind
	none noneKind // how a value that is not there is stored
}

// ref is how SQL names col on the table aliased by prefix.
func (col column) ref(prefix string) string {
	switch {
	case col.kind == colFalse:
		return "(1 = 0)"
	case strings.HasPrefix(col.name, "("):
		return col.name
	}
	return prefix + col.name
}

// noneSome are the conditions that col, named name, has no value and has
// one.
func (col column) noneSome(name string) (none, some string) {
	switch col.none {
	case alwaysSet:
		return sqlFalse, sqlTrue
	case emptyNone:
		return "length(" + name + ") = 0", "length(" + name + ") > 0" // no quote in the SQL
	}
	return name + " IS NULL", name + " IS NOT NULL"
}

type noneKind int

const (
	alwaysSet noneKind = iota
	nullNone           // NULL
	// emptyNone: the empty string, shown as null (the species of a request
	// whose target was never found).
	emptyNone
)

type colKind int

const (
	colText    colKind = iota + 1
	colInt             // compared with an int64
	colInstant         // compared with a time.Time, bound by the dialect
	colDate            // a date, compared as the instant 00:00Z of that date
	colHolding         // a CPH among the request's holdings (request_holdings), eq or ne
	colBool            // compared with a bool
	colFalse           // a bool member that is always false: no column
)

// requestFields are the fields of store.RequestFilterFields.
var requestFields = map[string]column{
	"movementDate":  {"movement_date", colInstant, nullNone},
	"requestDate":   {"request_date", colInstant, alwaysSet},
	"species":       {"species", colText, emptyNone},
	"requestStatus": {"status", colText, alwaysSet},
	"trackingId":    {"tracking_id", colText, nullNone},
	"userName":      {"user_name", colText, alwaysSet},
	"requestId":     {"id", colInt, alwaysSet},
	"holding":       {"id", colHolding, alwaysSet}, // the request's id, looked up in request_holdings
	// The live record's members, and those of its content kept beside it.
	"updatedDate":        {"updated_date", colInstant, alwaysSet},
	"isFullUndone":       {"is_full_undone", colBool, alwaysSet},
	"undoSupported":      {"undo_supported", colBool, alwaysSet},
	"isContentPurged":    {"", colFalse, alwaysSet}, // Drover keeps every request's content
	"content/trackingId": {"tracking_id", colText, nullNone},
	"content/species":    {"species", colText, emptyNone},
}

// movementInstantSQL is the date-time the request that last set movement
// m named (the transfer, or its correction): the movement keeps only the
// day, for the rules and the trace.
const movementInstantSQL = "(SELECT rq.movement_date FROM requests rq WHERE rq.id = m.request_id)"

// arrivalInstantSQL is the date-time the review that decided movement m
// gave for the arrival: NULL when none decided it, it gave none, or it was
// the source keeper's consent to a move the destination reported, whose
// arrival is the transfer's (movements' review.go).
const arrivalInstantSQL = "(SELECT rq.movement_date FROM requests rq WHERE rq.id = m.review_id AND m.reported_by = 'Departure')"

// reviewFields are the fields of store.ReviewFilterFields.
var reviewFields = map[string]column{
	// The date-time the transfer (or its correction) named, kept with the
	// request that last set the movement: the movement keeps only its day,
	// and a filter on the day would drop a move at 19:40 from "ge 12:00".
	"movementDate": {movementInstantSQL, colInstant, nullNone},
	// The requestId an item shows: after a correction, the correction's
	// (the movement's id stays its first transfer's).
	"requestId": {"request_id", colInt, alwaysSet},
}

var sqlOps = map[odata.Op]string{
	odata.Eq: "=", odata.Ne: "<>", odata.Gt: ">", odata.Ge: ">=", odata.Lt: "<", odata.Le: "<=",
}

// Constant conditions, for a date compared with an instant inside a day.
const (
	sqlTrue  = "1 = 1"
	sqlFalse = "1 = 0"
)

// instant compares an instant column with instant t as the interface
// shows the column: to the whole second, as floor(column) op t. A stored
// instant keeps what it was given (a fraction sent in a transferDate, the
// microseconds of a requestDate), but a client filters on what it was
// shown, so `le 2026-11-30T23:59:59Z` takes in 23:59:59.5 and `eq` a
// shown value finds its record. No shown value has a fraction, so `eq` a
// fractional t finds nothing. The second's end is bound as its last
// microsecond (stored instants have no finer part), never as the next
// second, which after 9999-12-31T23:59:59 SQLite's text would sort first.
func (f *filter) instant(col column, op odata.Op, t time.Time) string {
	t = t.UTC()
	floor := t.Truncate(time.Second)
	last, whole := floor.Add(time.Second-time.Microsecond), t.Equal(floor)
	switch {
	case op == odata.Gt, op == odata.Ge && !whole:
		return f.leaf(col, ">", f.s.at(last))
	case op == odata.Ge:
		return f.leaf(col, ">=", f.s.at(floor))
	case op == odata.Lt && whole:
		return f.leaf(col, "<", f.s.at(floor))
	case op == odata.Lt, op == odata.Le:
		return f.leaf(col, "<=", f.s.at(last))
	case !whole: // eq or ne a value no shown value has
		if op == odata.Eq {
			return sqlFalse
		}
		return sqlTrue
	}
	inside := "(" + f.leaf(col, ">=", f.s.at(floor)) + " AND " + f.leaf(col, "<=", f.s.at(last)) + ")"
	if op == odata.Eq {
		return inside
	}
	return "(NOT " + inside + ")" // ne, two-valued: leaf puts none outside
}

// date compares a date column with instant t, as the instant 00:00Z of
// the date: it becomes a comparison of dates with the day t falls on, so
// `ge 2026-11-01T00:00:00Z` takes in 1 November and `le
// 2026-11-30T23:59:59Z` takes in 30 November.
func (f *filter) date(col column, op odata.Op, t time.Time) string {
	t = t.UTC()
	floor := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	ceil, midnight := floor, t.Equal(floor)
	if !midnight {
		ceil = floor.AddDate(0, 0, 1)
	}
	switch op {
	case odata.Gt:
		return f.leaf(col, ">", date(floor))
	case odata.Ge:
		return f.leaf(col, ">=", date(ceil))
	case odata.Lt:
		return f.leaf(col, "<", date(ceil))
	case odata.Le:
		return f.leaf(col, "<=", date(floor))
	case odata.Eq:
		if midnight {
			return f.leaf(col, "=", date(floor))
		}
		return sqlFalse
	}
	if midnight {
		return f.leaf(col, "<>", date(floor))
	}
	return sqlTrue // ne: no date is an instant inside a day
}
