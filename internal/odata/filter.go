package odata

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/drover-registry/drover/internal/livestock"
)

const (
	// MaxFilterLength is the longest $filter accepted, in characters:
	// room for MaxFilterExpressions comparisons of long values.
	MaxFilterLength = 10000
	// MaxFilterDepth is how deep parentheses and nots may nest.
	MaxFilterDepth = 32
	// MaxFilterExpressions is how many comparisons a $filter may hold, as
	// the live service's definition states.
	MaxFilterExpressions = 100
)

const expectedOperator = "an operator (eq, ne, gt, ge, lt, le)"

// ParseFilter parses the text of a $filter (already URL-decoded) into a
// tree of comparisons on the given fields. Every error is a
// *livestock.Error of KindInvalid with one field: CodeFilterField when a
// field is not in fields, CodeFilterSyntax for anything else, with a
// message that starts "at character N:".
func ParseFilter(s string, fields Fields) (Expr, error) {
	if !utf8.ValidString(s) {
		off := 0
		for off < len(s) {
			r, n := utf8.DecodeRuneInString(s[off:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			off += n
		}
		return nil, syntaxError(s, off, s, "the filter is not valid UTF-8 text")
	}
	if n := utf8.RuneCountInString(s); n > MaxFilterLength {
		return nil, syntaxError(s, 0, s, "the filter is %d characters long; it can be at most %d", n, MaxFilterLength)
	}
	p := &parser{lx: newLexer(s), s: s, fields: fields}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	t, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if t.kind != tEnd {
		return nil, p.unexpected(t, "and, or, or the end of the filter")
	}
	return e, nil
}

type parser struct {
	lx     *lexer
	s      string
	fields Fields
	depth  int // parentheses and nots open around the current token
	count  int // comparisons read so far
}

// or := and ("or" and)*
func (p *parser) or() (Expr, error) {
	left, err := p.and()
	for err == nil {
		var t token
		if t, err = p.lx.peek(); err != nil || !t.isWord("or") {
			break
		}
		p.lx.next()
		var right Expr
		if right, err = p.and(); err == nil {
			left = &Or{Left: left, Right: right}
		}
	}
	if err != nil {
		return nil, err
	}
	return left, nil
}

// and := unary ("and" unary)*
func (p *parser) and() (Expr, error) {
	left, err := p.unary()
	for err == nil {
		var t token
		if t, err = p.lx.peek(); err != nil || !t.isWord("and") {
			break
		}
		p.lx.next()
		var right Expr
		if right, err = p.unary(); err == nil {
			left = &And{Left: left, Right: right}
		}
	}
	if err != nil {
		return nil, err
	}
	return left, nil
}

// unary := "not" unary | primary
func (p *parser) unary() (Expr, error) {
	t, err := p.lx.peek()
	if err != nil {
		return nil, err
	}
	if !t.isWord("not") {
		return p.primary()
	}
	p.lx.next()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	e, err := p.unary()
	if err != nil {
		return nil, err
	}
	p.depth--
	return &Not{Expr: e}, nil
}

// primary := "(" expr ")" | comparison
func (p *parser) primary() (Expr, error) {
	open, err := p.lx.peek()
	if err != nil {
		return nil, err
	}
	if open.kind != tOpen {
		return p.comparison()
	}
	p.lx.next()
	if err := p.enter(open); err != nil {
		return nil, err
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	t, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if t.kind != tClose {
		return nil, p.unexpected(t, fmt.Sprintf("and, or, or a closing parenthesis for the one at character %d", at(p.s, open.off)))
	}
	p.depth--
	return e, nil
}

// enter opens one level of nesting at t, a "(" or a "not".
func (p *parser) enter(t token) error {
	if p.depth >= MaxFilterDepth {
		return syntaxError(p.s, t.off, t.raw, "parentheses and nots nest more than %d deep", MaxFilterDepth)
	}
	p.depth++
	return nil
}

// comparison := field op literal | boolean-field
//
// A boolean field alone (isFullUndone, not isFullUndone) is true where
// the field is, as OData reads it: field eq true.
func (p *parser) comparison() (Expr, error) {
	f, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if f.kind != tWord || isKeyword(f.text) {
		return nil, p.unexpected(f, "a comparison (a field, an operator and a value)")
	}
	if p.count++; p.count > MaxFilterExpressions {
		return nil, syntaxError(p.s, f.off, f.raw, "the filter has more than %d expressions (comparisons)", MaxFilterExpressions)
	}
	field, ok := p.fields[f.text]
	if !ok {
		// No field is named as a function is: a name followed by "(" is a
		// call. A token that cannot be read after it leaves the unknown
		// name as the error nearest the start.
		if next, err := p.lx.peek(); err == nil && next.kind == tOpen {
			return p.call(f)
		}
		return nil, p.unknownField(f)
	}
	if field.Kind == Bool {
		next, err := p.lx.peek()
		if err != nil {
			return nil, err
		}
		if next.kind == tEnd || next.kind == tClose || next.isWord("and") || next.isWord("or") {
			return &Comparison{Field: f.text, Op: Eq, Value: true}, nil
		}
	}
	o, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	op, ok := ops[o.text]
	if o.kind != tWord || !ok {
		return nil, p.unexpected(o, expectedOperator)
	}
	if field.Unordered && op != Eq && op != Ne {
		return nil, syntaxError(p.s, o.off, o.raw, "%s has no order: it takes eq or ne, not %s", f.text, o.text)
	}
	next, err := p.lx.peek()
	if err != nil {
		return nil, err
	}
	if next.isWord("null") {
		_, _ = p.lx.next()
		if op != Eq && op != Ne {
			return nil, syntaxError(p.s, next.off, next.raw, "null has no order: %s eq null or %s ne null asks whether %s has a value", f.text, f.text, f.text)
		}
		return &Comparison{Field: f.text, Op: op, Value: Null{}}, nil
	}
	v, err := p.literal(f.text, field)
	if err != nil {
		return nil, err
	}
	return &Comparison{Field: f.text, Op: op, Value: v}, nil
}

// call := function "(" field "," string ")", f being the function's name.
func (p *parser) call(f token) (Expr, error) {
	text := textFields(p.fields)
	if !slices.Contains(Functions, f.text) {
		return nil, filterError(livestock.CodeFilterField, p.s, f.off, f.raw, "%s() is not a function of $filter here; %s",
			clip(f.text), functionsOffered(text))
	}
	_, _ = p.lx.next() // the "(", peeked
	name, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if name.kind != tWord || isKeyword(name.text) {
		return nil, p.unexpected(name, "a field")
	}
	if _, ok := p.fields[name.text]; !ok {
		return nil, p.unknownField(name)
	}
	if _, ok := text[name.text]; !ok {
		return nil, syntaxError(p.s, name.off, name.raw, "%s() takes a free-text field; %s is not one: %s",
			f.text, name.text, functionsOffered(text))
	}
	if t, err := p.lx.next(); err != nil {
		return nil, err
	} else if t.kind != tComma {
		return nil, p.unexpected(t, "a comma")
	}
	v, err := p.lx.next()
	if err != nil {
		return nil, err
	}
	if v.kind != tString {
		return nil, p.unexpected(v, "a string in single quotes")
	}
	if t, err := p.lx.next(); err != nil {
		return nil, err
	} else if t.kind != tClose {
		return nil, p.unexpected(t, "a closing parenthesis")
	}
	var e Expr = &Call{Func: f.text, Field: name.text, Value: v.text}
	// contains(…) eq true, as OData allows a boolean to be compared: the
	// call itself, or its not.
	if op, err := p.lx.peek(); err == nil && (op.isWord("eq") || op.isWord("ne")) {
		_, _ = p.lx.next()
		b, err := p.lx.next()
		if err != nil {
			return nil, err
		}
		if !b.isWord("true") && !b.isWord("false") {
			return nil, p.unexpected(b, "true or false (a function is true or false of its field)")
		}
		if (op.text == "eq") != (b.text == "true") {
			e = &Not{Expr: e}
		}
	}
	return e, nil
}

// functionsOffered says which functions a collection whose free-text
// fields are text takes, with an example, for messages.
func functionsOffered(text Fields) string {
	if len(text) == 0 {
		return "this collection has no free-text field, and so no function"
	}
	// The shortest name is the example: a path into the record is longer.
	example := slices.MinFunc(slices.Collect(maps.Keys(text)), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	})
	return fmt.Sprintf("the functions are %s, each of a free-text field (%s) and a string: contains(%s,'abc')",
		strings.Join(Functions, ", "), listFields(text), example)
}

// textFields are the fields of fields a string function takes: free text,
// not a closed set of values nor one read into another form.
func textFields(fields Fields) Fields {
	out := Fields{}
	for name, f := range fields {
		if f.Kind == String && f.Values == nil && f.Read == nil {
			out[name] = f
		}
	}
	return out
}

var ops = map[string]Op{"eq": Eq, "ne": Ne, "gt": Gt, "ge": Ge, "lt": Lt, "le": Le}

func isKeyword(w string) bool {
	_, op := ops[w]
	return op || w == "and" || w == "or" || w == "not"
}

func (t token) isWord(w string) bool { return t.kind == tWord && t.text == w }

func (p *parser) unknownField(f token) *livestock.Error {
	msg := fmt.Sprintf("%s cannot be filtered on; the fields are %s", clip(f.text), listFields(p.fields))
	if len(p.fields) == 0 {
		msg = fmt.Sprintf("%s cannot be filtered on; this collection has no fields to filter on", clip(f.text))
	}
	for name := range p.fields {
		if strings.EqualFold(name, f.text) {
			msg += fmt.Sprintf(" (did you mean %s? field names are matched exactly)", name)
			break
		}
	}
	return filterError(livestock.CodeFilterField, p.s, f.off, f.raw, "%s", msg)
}

// unexpected says what was expected at t and what was found instead. A
// keyword written in another case gets a hint.
func (p *parser) unexpected(t token, expected string) *livestock.Error {
	err := syntaxError(p.s, t.off, t.raw, "expected %s, found %s", expected, t.describe())
	if t.kind == tWord && t.text != strings.ToLower(t.text) && isKeyword(strings.ToLower(t.text)) {
		err.Fields[0].Message += " (keywords are lower case)"
	}
	return err
}

// syntaxError is a CodeFilterSyntax error at byte offset off of s.
func syntaxError(s string, off int, value, format string, args ...any) *livestock.Error {
	return filterError(livestock.CodeFilterSyntax, s, off, value, format, args...)
}

func filterError(code livestock.Code, s string, off int, value, format string, args ...any) *livestock.Error {
	return invalid(livestock.FieldError{
		Code:    code,
		Message: fmt.Sprintf("at character %d: ", at(s, off)) + fmt.Sprintf(format, args...),
		Source:  filterSource,
		Value:   printable(value),
	})
}
