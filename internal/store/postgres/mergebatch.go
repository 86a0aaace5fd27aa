package postgres

import (
	"strconv"
	"strings"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// Multi-row writes. A group's deferred writes arrive as one statement a
// row (a submission's request, holdings, job and reply; a job's request
// update and completion), and PostgreSQL starts and ends each statement
// on its own, which for a row of a few columns costs about as much as
// writing it (docs/performance.md has the figures). So runs of the same
// statement whose arguments are one VALUES list (INSERT … VALUES, or
// UPDATE … FROM (VALUES …)) are sent as one statement of their rows, in
// the order they came (which the ranks of sqldb's deferred.go chose):
// over unnest where it can (unnest.go); else as one VALUES list, in runs
// of a power of two rows, so that the connection's cache of prepared
// statements holds a few shapes of each.

// maxMergedParams is PostgreSQL's limit on a statement's parameters.
const maxMergedParams = 65535

// merged is one statement sent for stmts[from:to] of a batch.
type merged struct {
	query    string
	args     []any
	from, to int
}

// mergeRows groups the runs of stmts that are the same write of one
// VALUES list into one statement each: over unnest (unnest.go) when its
// rows are placeholders of known types, else as multi-row statements of
// the run's rows. Every other statement, and a write that may change any
// number of rows, is sent as it is.
func mergeRows(stmts []groupcommit.Statement, types columnTypes) []merged {
	out := make([]merged, 0, len(stmts))
	for i := 0; i < len(stmts); {
		head, rows, tail, ok := splitValues(stmts[i].Query)
		run, same := 1, 1 // the run of the write, and of its exact text
		for ok && stmts[i].Want >= 0 && i+run < len(stmts) && stmts[i+run].Want >= 0 && sameWrite(stmts[i+run].Query, head, tail) {
			if same == run && stmts[i+run].Query == stmts[i].Query {
				same++
			}
			run++
		}
		if ok && run > 1 {
			if m, ok := types.unnestRun(head, tail, stmts[i:i+run], i); ok {
				out = append(out, m)
				i += run
				continue
			}
		}
		if !ok || same == 1 {
			out = append(out, merged{query: stmts[i].Query, args: stmts[i].Args, from: i, to: i + 1})
			i++
			continue
		}
		for same > 0 {
			n := chunk(same, len(stmts[i].Args))
			out = append(out, mergeRun(head, rows, tail, stmts[i:i+n], i))
			i, same = i+n, same-n
		}
	}
	return out
}

// sameWrite reports whether query is head, rows, then tail.
func sameWrite(query, head, tail string) bool {
	return len(query) > len(head)+len(tail) && strings.HasPrefix(query, head) && strings.HasSuffix(query, tail)
}

// chunk is the largest power of two at most run whose rows keep under
// PostgreSQL's limit on parameters.
func chunk(run, params int) int {
	n := 1
	for n*2 <= run && n*2*params <= maxMergedParams {
		n *= 2
	}
	return n
}

// mergeRun writes stmts (the same insert, starting at index from of the
// batch) as one statement: each statement's rows with its parameters
// numbered after those of the statements before it.
func mergeRun(head, rows, tail string, stmts []groupcommit.Statement, from int) merged {
	var q strings.Builder
	q.Grow(len(head) + len(stmts)*(len(rows)+8) + len(tail))
	q.WriteString(head)
	args := make([]any, 0, len(stmts)*len(stmts[0].Args))
	for k, st := range stmts {
		if k > 0 {
			q.WriteString(", ")
		}
		renumber(&q, rows, len(args))
		args = append(args, st.Args...)
	}
	q.WriteString(tail)
	return merged{query: q.String(), args: args, from: from, to: from + len(stmts)}
}

// renumber writes rows with each placeholder $n as $(n+by).
func renumber(q *strings.Builder, rows string, by int) {
	for i := 0; i < len(rows); {
		if rows[i] != '$' {
			q.WriteByte(rows[i])
			i++
			continue
		}
		j := i + 1
		for j < len(rows) && rows[j] >= '0' && rows[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(rows[i+1 : j]) // splitValues let through only $ and digits
		q.WriteByte('$')
		q.WriteString(strconv.Itoa(n + by))
		i = j
	}
}

// splitValues splits an INSERT … VALUES (…)[, (…)] … statement, or an
// UPDATE … FROM (VALUES (…)) …, into what comes before its rows, the rows,
// and what follows them, when only the rows hold placeholders and quote
// no text; ok is false for any other statement.
func splitValues(query string) (head, rows, tail string, ok bool) {
	if !strings.HasPrefix(query, "INSERT INTO ") && !strings.HasPrefix(query, "UPDATE ") || strings.Contains(query, "--") {
		return "", "", "", false
	}
	at := valuesAt(query)
	if at < 0 {
		return "", "", "", false
	}
	start := at + len("VALUES ")
	end := start // after the last row read
	for i := start; i < len(query) && query[i] == '('; {
		depth := 0
		for ; i < len(query); i++ {
			switch c := query[i]; {
			case c == '(':
				depth++
			case c == ')':
				depth--
			case c == '$' && (i+1 >= len(query) || query[i+1] < '0' || query[i+1] > '9'):
				return "", "", "", false
			}
			if depth == 0 {
				break
			}
		}
		if depth != 0 {
			return "", "", "", false
		}
		i++
		end = i
		j := i
		for j < len(query) && strings.IndexByte(" \n\t", query[j]) >= 0 {
			j++
		}
		if j >= len(query) || query[j] != ',' {
			break
		}
		for j++; j < len(query) && strings.IndexByte(" \n\t", query[j]) >= 0; j++ {
		}
		i = j
	}
	if end == start || strings.ContainsAny(query[start:end], `'"`) || strings.Contains(query[end:], "$") {
		return "", "", "", false
	}
	return query[:start], query[start:end], query[end:], true
}

// valuesAt is where the first "VALUES (" outside quoted text starts in
// query, or -1 when there is none or a placeholder comes before it.
func valuesAt(query string) int {
	var quote byte // the quote open at i, if any
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote closes and opens again
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$':
			return -1
		case strings.HasPrefix(query[i:], "VALUES ("):
			return i
		}
	}
	return -1
}
