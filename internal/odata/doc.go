// Package odata reads the OData query options of Drover's collections —
// $filter, $top, $skip, $skiptoken, $expand, $select, $orderby, $count —
// into a Query whose filter is a small tree. What each collection offers
// is a Collection, data only. It knows nothing of SQL: the store compiles
// the tree and the order against its own columns, with bind parameters
// only.
//
// # Paging under any order
//
// @odata.nextLink carries a $skiptoken that marks the last item of the
// page: its id in the default order, or under an $orderby the values of
// every field of the order, which always ends with the collection's key
// (Query.Order). The next page is the items after that place in the
// order, so it never repeats or skips one, however the items tie.
//
// # Why a hand-written parser
//
// The $filter language Drover accepts is tiny: comparisons of an
// allow-listed field with a literal, joined by and, or and not, with
// parentheses. A recursive-descent parser for it is a few hundred lines
// that read side by side with the grammar below. Writing it ourselves buys
// three things a general library does not: every error names the character
// where it happened and the rule that was broken, in words a caller can act
// on; literals are typed by the field they are compared with (a date-time
// must carry a time and an offset); and the only trees that can come out
// are comparisons of allow-listed fields, so nothing downstream has to
// re-check. github.com/CiscoM31/godata was considered: it parses the
// general OData grammar (functions, arithmetic, lambdas, …) into a generic
// tree of tokens, which we would have had to walk a second time to reject
// all that Drover does not allow and to type the literals, and its errors
// would not be ours. It is not a dependency.
//
// # The $filter grammar
//
//	expr       := or
//	or         := and ("or" and)*
//	and        := unary ("and" unary)*
//	unary      := "not" unary | primary
//	primary    := "(" expr ")" | call | comparison
//	call       := ("contains" | "startswith" | "endswith") "(" field "," string ")" [("eq" | "ne") ("true" | "false")]
//	comparison := field op literal
//	op         := "eq" | "ne" | "gt" | "ge" | "lt" | "le"
//
// Keywords and operators are lower case, as in OData; field names are
// matched exactly. "and" binds tighter than "or", and both group to the
// left. "not" applies to the comparison or parenthesised expression after
// it: not a eq 1 and b eq 2 is (not (a eq 1)) and (b eq 2). That is
// looser than OData's precedence table, which ranks not above eq and so
// would make not a eq 1 a comparison of (not a), meaningless for Drover's
// fields; "not (a eq 1)" means the same in both.
//
// Tokens are separated by one or more spaces, except that none is needed
// just inside a parenthesis: "(a eq 1)" and "( a eq 1 )" are both fine,
// "(a eq 1)and(b eq 2)" is not.
//
// A literal is read by the kind of the field it is compared with:
//
//	species eq 'Sheep'                          String: in single quotes,
//	userName eq 'O''Brien'                      a quote inside written twice
//	requestId eq 42                             Int: a decimal int64, perhaps negative
//	isFullUndone eq true                        Bool: true or false
//	movementDate ge 2026-11-01T00:00:00Z        DateTime: the time and the
//	movementDate lt 2026-11-01T09:30:00.5-05:00 offset are mandatory
//
// A date-time is yyyy-MM-ddTHH:mm:ss[.ffffff] then Z or ±hh:mm, as
// livestock.ParseDateTime reads it, with at most microseconds (what the
// stores keep); the value is the instant in UTC.
// Because the movements document tells callers to write ":" as %3b, which
// decodes to ";", a ";" is read as ":" inside a date-time literal (and
// nowhere else). A "+" in a URL query decodes to a space, so a space where
// the offset's sign belongs is an error that says to write + as %2b; it is
// never silently accepted.
//
// A free-text field (a String field with no Values and no Read) takes the
// string functions contains, startswith and endswith, each a primary of its
// own: contains(trackingId,'x'), with no space needed inside its
// parentheses or around its comma. They are what the live definitions'
// "allfunctions" most often means; the rest of OData's functions, and
// arithmetic, are refused by name.
//
// There is no arithmetic. A filter is at most MaxFilterLength characters
// and MaxFilterExpressions comparisons and function calls, and
// parentheses and nots nest at most MaxFilterDepth deep, so hostile input
// stays cheap. A field may be a path into the record, content/trackingId:
// it is matched as one name.
//
// # Format and the canonical text
//
// Format writes a tree back as the shortest text this grammar reads back to
// the same tree: one space between tokens, parentheses only where they are
// needed, UTC date-times. It is what @odata.nextLink carries. Because the
// canonical text is never longer and never nests deeper than any text that
// gives the same tree, it always passes the limits again.
package odata
