package postgres

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// A run of one write whose rows are bare placeholders goes as a single
// statement over unnest, one array parameter a column: whatever the
// run's length, one statement of one text, which a connection prepares
// once and PostgreSQL plans once. As VALUES lists (mergeRun), the
// fallback, a run of 13 goes as statements of 8, 4 and 1 rows, each shape
// prepared and planned apart, with parameters that grow with its rows.

// columnTypes are the SQL types of the store's columns, by table then
// column: an unnest's arrays must be typed, and a VALUES list of an
// INSERT takes its types from the columns it fills.
type columnTypes map[string]map[string]string

// columnTypesSQL reads the columns of the tables of the connection's
// schema (search_path), as format_type spells their types.
const columnTypesSQL = `SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
	FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
	WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`

// readColumnTypes reads the column types once the migrations have run.
// A column added later by another replica's migration is simply not
// known here: its writes go as VALUES lists.
func readColumnTypes(ctx context.Context, db *sql.DB) (columnTypes, error) {
	rows, err := db.QueryContext(ctx, columnTypesSQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	types := columnTypes{}
	for rows.Next() {
		var table, column, typ string
		if err := rows.Scan(&table, &column, &typ); err != nil {
			return nil, err
		}
		if types[table] == nil {
			types[table] = map[string]string{}
		}
		types[table][column] = typ
	}
	return types, rows.Err()
}

// slot is one value of a row of a VALUES list: placeholder $param, with
// the type it is cast to, if any ($1::bigint).
type slot struct {
	param int
	cast  string
}

// unnestRun writes stmts, each head, rows of its own, then tail (as
// splitValues split the first), as one statement over unnest; ok is
// false when a statement's rows hold anything but placeholders, or a
// column's type is unknown.
func (types columnTypes) unnestRun(head, tail string, stmts []groupcommit.Statement, from int) (m merged, ok bool) {
	var typed []string // each column's type, from the first row's casts or the table
	var arrays [][]any
	for _, st := range stmts {
		tuples, ok := parseRows(st.Query[len(head) : len(st.Query)-len(tail)])
		if !ok {
			return merged{}, false
		}
		for _, tuple := range tuples {
			if typed == nil {
				if typed, ok = types.typesOf(head, tuple); !ok {
					return merged{}, false
				}
				arrays = make([][]any, len(typed))
			}
			if len(tuple) != len(typed) {
				return merged{}, false
			}
			for i, s := range tuple {
				if s.param > len(st.Args) {
					return merged{}, false
				}
				arrays[i] = append(arrays[i], st.Args[s.param-1])
			}
		}
	}
	var q strings.Builder
	q.WriteString(head[:strings.LastIndex(head, "VALUES ")])
	q.WriteString("SELECT * FROM unnest(")
	args := make([]any, len(arrays))
	for i, a := range arrays {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("$" + strconv.Itoa(i+1) + "::" + typed[i] + "[]")
		args[i] = a
	}
	q.WriteString(")")
	q.WriteString(tail)
	return merged{query: q.String(), args: args, from: from, to: from + len(stmts)}, true
}

// typesOf is the type of each value of tuple, a row of the VALUES list
// that head ends with: its cast, or else the type of the column an
// INSERT's list names at its place.
func (types columnTypes) typesOf(head string, tuple []slot) ([]string, bool) {
	var columns []string
	if table, list, ok := insertColumns(head); ok {
		if len(list) != len(tuple) {
			return nil, false
		}
		columns = make([]string, len(list))
		for i, c := range list {
			columns[i] = types[table][c]
		}
	}
	out := make([]string, len(tuple))
	for i, s := range tuple {
		switch {
		case s.cast != "":
			out[i] = s.cast
		case columns != nil && columns[i] != "":
			out[i] = columns[i]
		default:
			return nil, false
		}
	}
	return out, true
}

// insertColumns reads "INSERT INTO table (a, b, …)" at the start of head.
func insertColumns(head string) (table string, columns []string, ok bool) {
	rest, ok := strings.CutPrefix(head, "INSERT INTO ")
	if !ok {
		return "", nil, false
	}
	table, rest, ok = strings.Cut(rest, " (")
	if !ok || strings.ContainsAny(table, ".\" ") {
		return "", nil, false
	}
	list, _, ok := strings.Cut(rest, ")")
	if !ok {
		return "", nil, false
	}
	for c := range strings.SplitSeq(list, ",") {
		columns = append(columns, strings.TrimSpace(c))
	}
	return table, columns, true
}

// parseRows reads a VALUES list whose values are all placeholders, each
// perhaps cast to a type of letters and spaces.
func parseRows(rows string) (tuples [][]slot, ok bool) {
	for rest := strings.TrimSpace(rows); rest != ""; {
		if rest[0] != '(' {
			return nil, false
		}
		inside, after, found := strings.Cut(rest[1:], ")")
		if !found || strings.Contains(inside, "(") {
			return nil, false
		}
		var tuple []slot
		for v := range strings.SplitSeq(inside, ",") {
			s, ok := parseSlot(strings.TrimSpace(v))
			if !ok {
				return nil, false
			}
			tuple = append(tuple, s)
		}
		tuples = append(tuples, tuple)
		rest = strings.TrimSpace(after)
		if rest != "" {
			if rest[0] != ',' {
				return nil, false
			}
			rest = strings.TrimSpace(rest[1:])
		}
	}
	return tuples, len(tuples) > 0
}

// parseSlot reads "$n" or "$n::type".
func parseSlot(v string) (slot, bool) {
	p, cast, _ := strings.Cut(v, "::")
	n, err := strconv.Atoi(strings.TrimPrefix(p, "$"))
	if !strings.HasPrefix(p, "$") || err != nil || n < 1 {
		return slot{}, false
	}
	for _, c := range cast {
		if (c < 'a' || c > 'z') && c != ' ' {
			return slot{}, false
		}
	}
	return slot{param: n, cast: cast}, true
}
