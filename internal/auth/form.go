package auth

import (
	"errors"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// maxFormBytes bounds a form body; a token or login form is a few hundred.
const maxFormBytes = 64 << 10

// readForm parses an application/x-www-form-urlencoded body. Each
// parameter may be sent once (RFC 6749 §3.1, §3.2).
func readForm(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, livestock.Invalid("The body must be a form.", livestock.FieldError{
			Code: livestock.CodeUnsupportedType, Source: "header:Content-Type",
			Message: "Content-Type must be application/x-www-form-urlencoded",
			Value:   r.Header.Get("Content-Type"),
		})
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, &livestock.Error{Kind: livestock.KindTooLarge, Fields: []livestock.FieldError{{
				Code: livestock.CodeTooLarge, Source: "body", Message: "the form is over 64 KiB",
			}}}
		}
		return nil, livestock.Invalid("The body is not a valid form.", livestock.FieldError{
			Code: livestock.CodeBadFormat, Source: "body", Message: "the form cannot be decoded",
		})
	}
	v, err := single(r.PostForm, "form:")
	if err != nil {
		return nil, err
	}
	if err := plainForm(v); err != nil {
		return nil, err
	}
	return v, nil
}

// plainForm refuses a form value that is not plain text (a NUL, invalid
// UTF-8, a control character), naming the field, before it reaches a
// query: PostgreSQL would fail on it where SQLite finds no match. The
// password is never queried or stored, only hashed, and may be any bytes.
func plainForm(v url.Values) error {
	var fields []livestock.FieldError
	for _, k := range slices.Sorted(maps.Keys(v)) {
		if k != "password" && !livestock.PlainText(v.Get(k)) {
			fields = append(fields, fieldError(livestock.CodeBadFormat, "form:"+k, k+" must be UTF-8 text without control characters"))
		}
	}
	if fields != nil {
		return livestock.Invalid("A parameter is not text.", fields...)
	}
	return nil
}

// single refuses a parameter given more than once.
func single(v url.Values, prefix string) (url.Values, error) {
	var fields []livestock.FieldError
	for _, k := range slices.Sorted(maps.Keys(v)) {
		if len(v[k]) > 1 {
			fields = append(fields, fieldError(livestock.CodeBadFormat, prefix+k, k+" is given more than once"))
		}
	}
	if fields != nil {
		return nil, livestock.Invalid("A parameter is repeated.", fields...)
	}
	return v, nil
}

// require refuses v unless every name has a non-empty value; it lists
// every missing one.
func require(v url.Values, prefix string, names ...string) error {
	var fields []livestock.FieldError
	for _, n := range names {
		if v.Get(n) == "" {
			fields = append(fields, fieldError(livestock.CodeMissing, prefix+n, n+" is required"))
		}
	}
	if fields != nil {
		return livestock.Invalid("A required parameter is missing.", fields...)
	}
	return nil
}

func fieldError(code livestock.Code, source, msg string) livestock.FieldError {
	return livestock.FieldError{Code: code, Source: source, Message: msg}
}

// badGrant is the token endpoint's refusal of a grant (OAuth's
// invalid_grant), pointing at the form field at fault.
func badGrant(field, msg string) *livestock.Error {
	return livestock.Invalid("The token request was refused.",
		fieldError(livestock.CodeBadGrant, "form:"+field, msg))
}

// normalScope keeps the known scopes of a requested scope, in the order
// of scopesSupported, or gives the default when none is known.
func normalScope(requested string) string {
	asked := strings.Fields(requested)
	var kept []string
	for _, s := range scopesSupported {
		if slices.Contains(asked, s) {
			kept = append(kept, s)
		}
	}
	if kept == nil {
		return defaultScope
	}
	return strings.Join(kept, " ")
}
