package odata

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Format writes e as canonical $filter text, which ParseFilter reads back
// to an equal tree: one space between tokens, parentheses only where the
// grammar needs them, strings in single quotes with a quote inside doubled,
// whole numbers in decimal, date-times in UTC as RFC 3339 (2026-11-01T00:00:00Z, fractional
// seconds without trailing zeros). A nil e is "".
//
// (It is not called String because String is already the Kind of text
// fields; each node's String method gives the same text.)
func Format(e Expr) string {
	var b strings.Builder
	write(&b, e, inOr)
	return b.String()
}

// Where an expression stands, from loosest to tightest: an or or an and
// needs parentheses when it binds more loosely than its place. Both group
// to the left, so their right-hand side is one place tighter.
const (
	inOr    = iota // the whole filter; the left of or
	inAnd          // the right of or; the left of and
	inUnary        // the right of and; after not
)

func (c *Comparison) String() string { return Format(c) }
func (c *Call) String() string       { return Format(c) }
func (n *Not) String() string        { return Format(n) }
func (a *And) String() string        { return Format(a) }
func (o *Or) String() string         { return Format(o) }

func write(b *strings.Builder, e Expr, place int) {
	switch e := e.(type) {
	case *Or:
		open(b, place > inOr)
		write(b, e.Left, inOr)
		b.WriteString(" or ")
		write(b, e.Right, inAnd) // or groups to the left: a right-hand or needs parentheses
		closeIf(b, place > inOr)
	case *And:
		open(b, place > inAnd)
		write(b, e.Left, inAnd)
		b.WriteString(" and ")
		write(b, e.Right, inUnary)
		closeIf(b, place > inAnd)
	case *Not:
		b.WriteString("not ")
		write(b, e.Expr, inUnary)
	case *Call:
		b.WriteString(e.Func + "(" + e.Field + ",")
		b.WriteString(literalText(e.Value))
		b.WriteByte(')')
	case *Comparison:
		b.WriteString(e.Field)
		b.WriteByte(' ')
		b.WriteString(string(e.Op))
		b.WriteByte(' ')
		b.WriteString(literalText(e.Value))
	}
}

func open(b *strings.Builder, paren bool) {
	if paren {
		b.WriteByte('(')
	}
}

func closeIf(b *strings.Builder, paren bool) {
	if paren {
		b.WriteByte(')')
	}
}

// literalText writes a comparison's value as a literal of its kind.
func literalText(v any) string {
	switch v := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano)
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(v)
}
