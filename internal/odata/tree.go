package odata

import "slices"

// Op is a comparison operator of $filter.
type Op string

const (
	Eq Op = "eq"
	Ne Op = "ne"
	Gt Op = "gt"
	Ge Op = "ge"
	Lt Op = "lt"
	Le Op = "le"
)

// Kind is the type of a filterable field and of the literal compared to it.
type Kind int

const (
	String   Kind = iota + 1 // 'Sheep'
	DateTime                 // 2026-11-01T00:00:00Z; the time and offset are mandatory
	Int                      // 42
	Bool                     // true or false
)

// Expr is a node of a $filter tree: *Comparison, *Call, *Not, *And or *Or.
type Expr interface{ expr() }

// Comparison is `Field Op Value`. Value is a string, a time.Time (UTC),
// an int64 or a bool, according to the field's Kind.
type Comparison struct {
	Field string
	Op    Op
	Value any
}

// Call is a string function that is true or false of a text field:
// `contains(Field,'Value')`, `startswith(…)` or `endswith(…)`. It matches
// letter case exactly, as OData's functions do; every text has the empty
// string in it, and a field with no value has nothing.
type Call struct {
	Func  string // contains, startswith or endswith
	Field string
	Value string
}

// Functions are the $filter functions a text field takes (Call).
var Functions = []string{"contains", "startswith", "endswith"}

// Not is `not (Expr)`.
type Not struct{ Expr Expr }

// And is `Left and Right`.
type And struct{ Left, Right Expr }

// Or is `Left or Right`.
type Or struct{ Left, Right Expr }

func (*Comparison) expr() {}
func (*Call) expr()       {}
func (*Not) expr()        {}
func (*And) expr()        {}
func (*Or) expr()         {}

// Fields lists the fields a collection may be filtered on.
type Fields map[string]Field

// Field is a filterable field: its kind and, for a String field whose
// values are a closed set (a status, a species), those values. A literal
// outside the set is refused: a misspelt 'Sucess' would otherwise match
// nothing, and the empty page would look like an answer.
//
// Read, when set, reads a String field's literal into the form stored (a
// holding's CPH in its normal form, an old name of a status as its live
// one), or says why it cannot be one, for the same reason; Values are
// checked after it. An Unordered field is compared with eq and ne only,
// and cannot be named in $orderby.
type Field struct {
	Kind      Kind
	Values    []string
	Read      func(string) (string, error)
	Unordered bool
}

// Query is the query options of one collection request.
type Query struct {
	Filter  Expr     // nil when there is no $filter
	Top     int      // the page size asked for; 0 when $top is absent
	HasTop  bool     // whether $top was given (then no @odata.nextLink)
	Skip    int      // results to skip
	AfterID int64    // from $skiptoken in the default order: only items after this id
	Expand  []string // the members $expand names at the top, e.g. "content"
	// Select is the members $select names, in the order given, each once;
	// nil when there is no $select or it names every member ("*").
	Select []string
	// OrderBy is $orderby as given; nil for the default order (the key,
	// ascending), which a $orderby of the key alone also is.
	OrderBy []OrderItem
	// After is, from a $skiptoken under an $orderby, the values of the
	// last item of the page before for each item of Order(key): only items
	// after it in that order. A nil value is a member that has none.
	After []any
	Count bool // $count=true: the answer says how many items match
}

// Shows reports whether q asks for member, which an answer leaves out
// unless asked: $expand or $select names it. Such a member (a request's
// content) need not be read when it is not asked for.
func (q Query) Shows(member string) bool {
	return slices.Contains(q.Expand, member) || slices.Contains(q.Select, member)
}

// OrderItem is one expression of $orderby: a field, ascending or not.
type OrderItem struct {
	Field string
	Desc  bool
}

// Null is the value of a comparison with the literal null, eq or ne only:
// whether the field has no value (trackingId eq null), or has one.
type Null struct{}
