package postgres

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// st is a deferred write of query that wants want rows changed.
func st(query string, want int64, args ...any) groupcommit.Statement {
	return groupcommit.Statement{Query: query, Args: args, Want: want}
}

// TestMergeRows: without the columns' types, runs of one insert of
// literal rows become one statement with the parameters renumbered, in
// runs of a power of two; anything else, or a write that may change any
// number of rows, goes as it came.
func TestMergeRows(t *testing.T) {
	t.Parallel()
	const (
		ins      = "INSERT INTO t (a, b) VALUES ($1, $2)\n\t\tON CONFLICT (a) DO NOTHING"
		holdings = "INSERT INTO h (r, c, k) VALUES ($1, $3, $2), ($1, $4, $2)"
		upd      = "UPDATE t SET b = $2 WHERE a = $1"
	)
	stmts := []groupcommit.Statement{
		st(ins, 1, "a1", 1), st(ins, 1, "a2", 2), st(ins, 1, "a3", 3),
		st(holdings, 2, 7, "T", "c1", "c2"), st(holdings, 2, 8, "T", "c3", "c4"),
		st(upd, 1, "a1", 9), st(upd, 1, "a2", 9),
		st(ins, -1, "a4", 4), st(ins, -1, "a5", 5),
	}
	want := []merged{
		{query: "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)\n\t\tON CONFLICT (a) DO NOTHING", args: []any{"a1", 1, "a2", 2}, from: 0, to: 2},
		{query: ins, args: []any{"a3", 3}, from: 2, to: 3},
		{query: "INSERT INTO h (r, c, k) VALUES ($1, $3, $2), ($1, $4, $2), ($5, $7, $6), ($5, $8, $6)",
			args: []any{7, "T", "c1", "c2", 8, "T", "c3", "c4"}, from: 3, to: 5},
		{query: upd, args: []any{"a1", 9}, from: 5, to: 6},
		{query: upd, args: []any{"a2", 9}, from: 6, to: 7},
		{query: ins, args: []any{"a4", 4}, from: 7, to: 8},
		{query: ins, args: []any{"a5", 5}, from: 8, to: 9},
	}
	if diff := cmp.Diff(want, mergeRows(stmts, nil), cmp.AllowUnexported(merged{})); diff != "" {
		t.Errorf("mergeRows (-want +got):\n%s", diff)
	}
}

// TestSplitValues refuses every statement whose rows it cannot renumber
// safely.
func TestSplitValues(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		"UPDATE t SET a = $1",
		"INSERT INTO t SELECT $1",
		"INSERT INTO t (a) VALUES ($1) RETURNING $2",
		"INSERT INTO t (a) VALUES ('$1')",
		"UPDATE t SET a = $1 FROM (VALUES ($2)) AS v (b)",
		"INSERT INTO t (a) VALUES ($1) -- $2",
		"INSERT INTO t (a) VALUES ($1, $x)",
		"INSERT INTO t (a) VALUES (($1)",
		"UPDATE t SET a = v.a FROM (VALUES ($1)) AS v (a) WHERE t.id = $2",
		"DELETE FROM t WHERE a IN (VALUES ($1))",
		"INSERT INTO t (a) VALUES ",
	} {
		if _, _, _, ok := splitValues(q); ok {
			t.Errorf("splitValues(%q) is ok; want refused", q)
		}
	}
	for _, tc := range []struct{ query, head, rows, tail string }{
		{"INSERT INTO t (a, b) OVERRIDING SYSTEM VALUE VALUES ($1, now()), ($2, $3) ON CONFLICT DO NOTHING",
			"INSERT INTO t (a, b) OVERRIDING SYSTEM VALUE VALUES ", "($1, now()), ($2, $3)", " ON CONFLICT DO NOTHING"},
		{"UPDATE t SET a = v.a FROM (VALUES ($1::bigint, $2::text)) AS v (id, a) WHERE t.id = v.id",
			"UPDATE t SET a = v.a FROM (VALUES ", "($1::bigint, $2::text)", ") AS v (id, a) WHERE t.id = v.id"},
		{"UPDATE t SET a = 'VALUES ($9)' FROM (VALUES ($1)) AS v (b)", "UPDATE t SET a = 'VALUES ($9)' FROM (VALUES ", "($1)", ") AS v (b)"},
		{finishJob, finishJob[:strings.Index(finishJob, "(VALUES ")+len("(VALUES ")], "($1::bigint, $2::timestamptz)",
			finishJob[strings.Index(finishJob, ")) AS")+1:]},
		{updateRequest, updateRequest[:strings.Index(updateRequest, "(VALUES ")+len("(VALUES ")],
			updateRequest[strings.Index(updateRequest, "($1::bigint") : strings.Index(updateRequest, ")) AS")+1],
			updateRequest[strings.Index(updateRequest, ")) AS")+1:]},
	} {
		head, rows, tail, ok := splitValues(tc.query)
		if !ok || head != tc.head || rows != tc.rows || tail != tc.tail {
			t.Errorf("splitValues(%q) = %q %q %q %v", tc.query, head, rows, tail, ok)
		}
	}
}

// TestShare: a merged statement's count goes to its parts only when it
// is the count they wanted together.
func TestShare(t *testing.T) {
	t.Parallel()
	stmts := []groupcommit.Statement{{Query: "x", Want: 1}, {Query: "x", Want: 2}}
	share(stmts, 3)
	if stmts[0].Affected != 1 || stmts[1].Affected != 2 {
		t.Errorf("shared 3 as %d, %d; want 1, 2", stmts[0].Affected, stmts[1].Affected)
	}
	share(stmts, 2) // a trackingId used before: one row not inserted
	if stmts[0].Affected == 1 || stmts[1].Affected == 2 {
		t.Errorf("shared 2 as %d, %d; want counts neither wanted", stmts[0].Affected, stmts[1].Affected)
	}
}

// TestMergeRowsUnnest: with the columns' types, a run of one write goes
// as one statement over unnest whatever its length, its rows' values in
// column arrays; the holdings' rows, which share placeholders, each give
// a row of their own.
func TestMergeRowsUnnest(t *testing.T) {
	t.Parallel()
	types := columnTypes{"t": {"a": "text", "b": "integer"}, "h": {"r": "bigint", "c": "text", "k": "text"}}
	const (
		ins   = "INSERT INTO t (a, b) OVERRIDING SYSTEM VALUE VALUES ($1, $2)\n\t\tON CONFLICT (a) DO NOTHING"
		two   = "INSERT INTO h (r, c, k) VALUES ($1, $3, $2), ($1, $4, $2)"
		three = "INSERT INTO h (r, c, k) VALUES ($1, $3, $2), ($1, $4, $2), ($1, $5, $2)"
		upd   = "UPDATE t SET b = v.b FROM (VALUES ($1::text, $2::integer)) AS v (a, b) WHERE t.a = v.a"
		other = "INSERT INTO t (a, b) VALUES ($1, now())"
	)
	stmts := []groupcommit.Statement{
		st(ins, 1, "a1", 1), st(ins, 1, "a2", 2), st(ins, 1, "a3", 3),
		st(two, 2, 7, "T", "c1", "c2"), st(three, 3, 8, "U", "c3", "c4", "c5"),
		st(upd, 1, "a1", 9), st(upd, 1, "a2", nil),
		st(other, 1, "x"), st(other, 1, "y"),
	}
	want := []merged{
		{query: "INSERT INTO t (a, b) OVERRIDING SYSTEM VALUE SELECT * FROM unnest($1::text[], $2::integer[])\n\t\tON CONFLICT (a) DO NOTHING",
			args: []any{[]any{"a1", "a2", "a3"}, []any{1, 2, 3}}, from: 0, to: 3},
		{query: "INSERT INTO h (r, c, k) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])",
			args: []any{[]any{7, 7, 8, 8, 8}, []any{"c1", "c2", "c3", "c4", "c5"}, []any{"T", "T", "U", "U", "U"}}, from: 3, to: 5},
		{query: "UPDATE t SET b = v.b FROM (SELECT * FROM unnest($1::text[], $2::integer[])) AS v (a, b) WHERE t.a = v.a",
			args: []any{[]any{"a1", "a2"}, []any{9, nil}}, from: 5, to: 7},
		{query: "INSERT INTO t (a, b) VALUES ($1, now()), ($2, now())", args: []any{"x", "y"}, from: 7, to: 9},
	}
	if diff := cmp.Diff(want, mergeRows(stmts, types), cmp.AllowUnexported(merged{})); diff != "" {
		t.Errorf("mergeRows (-want +got):\n%s", diff)
	}
}

// TestParseRows refuses a VALUES list with anything but placeholders.
func TestParseRows(t *testing.T) {
	t.Parallel()
	for _, rows := range []string{"", "($1, now())", "($1, 'x')", "($1::numeric(3))", "($0)", "($1) ($2)", "($1", "($x)", "($1::Text)"} {
		if got, ok := parseRows(rows); ok {
			t.Errorf("parseRows(%q) = %v; want refused", rows, got)
		}
	}
	got, ok := parseRows(" ($1, $2::timestamp with time zone) , ($3,$4) ")
	want := [][]slot{{{1, ""}, {2, "timestamp with time zone"}}, {{3, ""}, {4, ""}}}
	if !ok || !cmp.Equal(got, want, cmp.AllowUnexported(slot{})) {
		t.Errorf("parseRows = %v, %v; want %v", got, ok, want)
	}
}

// TestMergeRowsKeepsEveryRow: for any run of inserts whose rows name
// their placeholders in any order and number, the statements sent hold
// every row's values in its columns, in the order the rows came, and
// each statement covers the writes it was merged from.
func TestMergeRowsKeepsEveryRow(t *testing.T) {
	t.Parallel()
	types := columnTypes{"t": {"a": "bigint", "b": "text", "c": "boolean"}}
	rapid.Check(t, func(t *rapid.T) {
		var stmts []groupcommit.Statement
		var want [][]any // each row's (a, b, c)
		for range rapid.IntRange(1, 12).Draw(t, "writes") {
			rows := rapid.IntRange(1, 4).Draw(t, "rows")
			var args []any
			var tuples []string
			for range rows {
				row := []any{rapid.Int64().Draw(t, "a"), rapid.StringMatching(`[a-z]{0,3}`).Draw(t, "b"), rapid.Bool().Draw(t, "c")}
				want = append(want, row)
				// The columns' placeholders in a drawn order, numbered as they are appended.
				at := make([]int, 3)
				for _, col := range rapid.Permutation([]int{0, 1, 2}).Draw(t, "order") {
					args = append(args, row[col])
					at[col] = len(args)
				}
				tuples = append(tuples, fmt.Sprintf("($%d, $%d, $%d)", at[0], at[1], at[2]))
			}
			stmts = append(stmts, groupcommit.Statement{Query: "INSERT INTO t (a, b, c) VALUES " + strings.Join(tuples, ", "),
				Args: args, Want: int64(rows)})
		}
		sent := mergeRows(stmts, types)
		var got [][]any
		next := 0
		for _, m := range sent {
			if m.from != next || m.to <= m.from {
				t.Fatalf("statement covers writes [%d, %d), want from %d", m.from, m.to, next)
			}
			next = m.to
			if !strings.Contains(m.query, "unnest(") {
				if m.to-m.from != 1 {
					t.Fatalf("%d writes merged without unnest: %s", m.to-m.from, m.query)
				}
				tuples, _ := parseRows(strings.TrimPrefix(m.query, "INSERT INTO t (a, b, c) VALUES "))
				for _, tu := range tuples {
					got = append(got, []any{m.args[tu[0].param-1], m.args[tu[1].param-1], m.args[tu[2].param-1]})
				}
				continue
			}
			cols := m.args
			for i := range cols[0].([]any) {
				got = append(got, []any{cols[0].([]any)[i], cols[1].([]any)[i], cols[2].([]any)[i]})
			}
		}
		if next != len(stmts) {
			t.Fatalf("statements cover %d writes of %d", next, len(stmts))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("rows (-want +got):\n%s", diff)
		}
	})
}
