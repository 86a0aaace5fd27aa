package livestock

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an error by what the caller can do about it. The HTTP
// layer maps each Kind to one status code; anything that is not an *Error
// is an internal fault.
type Kind int

const (
	KindInternal         Kind = iota // a fault of ours: logged, shown generically
	KindInvalid                      // the request breaks a rule: fix and resend
	KindNotFound                     // the thing named does not exist (or is not yours to see)
	KindConflict                     // the request clashes with the registry's state
	KindForbidden                    // well formed, but not yours to do
	KindUnauthenticated              // no valid identity
	KindUnavailable                  // try again later
	KindTooMany                      // slow down
	KindTooLarge                     // the body is over the limit
	KindMethodNotAllowed             // the endpoint exists, not with this method
)

func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindNotFound:
		return "not found"
	case KindConflict:
		return "conflict"
	case KindForbidden:
		return "forbidden"
	case KindUnauthenticated:
		return "unauthenticated"
	case KindUnavailable:
		return "unavailable"
	case KindTooMany:
		return "too many requests"
	case KindTooLarge:
		return "too large"
	case KindMethodNotAllowed:
		return "method not allowed"
	}
	return "internal"
}

// FieldError is one broken rule: a stable code, a message that is safe to
// show, the place it broke (a JSON pointer into the body, or a parameter
// name) and the offending value.
type FieldError struct {
	Code    Code
	Message string
	Source  string
	Value   string
}

func (f FieldError) Error() string {
	if f.Source == "" {
		return fmt.Sprintf("%s: %s", f.Code, f.Message)
	}
	return fmt.Sprintf("%s: %s: %s", f.Code, f.Source, f.Message)
}

// Error is an error whose message is safe to show to the caller. Err, when
// set, carries internal detail for the log only.
type Error struct {
	Kind   Kind
	Detail string       // one sentence for the caller
	Fields []FieldError // every rule broken, when there are several
	Err    error        // internal cause; never shown
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	for _, f := range e.Fields {
		b.WriteString("; ")
		b.WriteString(f.Error())
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an *Error of the given kind with a message for the caller.
func Errorf(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// Invalid makes a KindInvalid error listing every broken rule.
func Invalid(detail string, fields ...FieldError) *Error {
	return &Error{Kind: KindInvalid, Detail: detail, Fields: fields}
}

// ErrorKind reports the Kind of err: the Kind of the first *Error in its
// chain, or KindInternal.
func ErrorKind(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// IsNotFound reports whether err says that something does not exist.
func IsNotFound(err error) bool { return ErrorKind(err) == KindNotFound }
