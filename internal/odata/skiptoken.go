package odata

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// A $skiptoken marks the place in a collection that @odata.nextLink
// continues from: the id of the last item of the page before. Callers must
// treat it as opaque; it is the base64url (no padding) of "v1:<id>", so
// that a later version can change what it holds and still recognise, and
// refuse or translate, the tokens of this one.
const skipTokenPrefix = "v1:"

// maxSkipToken bounds the text ParseSkipToken will decode: "v1:" and 19
// digits fit in 30 characters of base64.
const maxSkipToken = 64

// SkipToken is the $skiptoken for the items after id (id ≥ 0).
func SkipToken(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(skipTokenPrefix + strconv.FormatInt(id, 10)))
}

// ParseSkipToken is the id a token of SkipToken was made from. A token it
// did not make (or not exactly as it makes them) is a CodeBadQuery error.
func ParseSkipToken(tok string) (int64, error) {
	bad := func() (int64, error) {
		return 0, invalid(optionError(livestock.CodeBadQuery, "$skiptoken", tok,
			"$skiptoken is not one this service gave out; follow @odata.nextLink as it is given"))
	}
	if len(tok) > maxSkipToken {
		return bad()
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(tok)
	if err != nil {
		return bad()
	}
	digits, ok := strings.CutPrefix(string(b), skipTokenPrefix)
	if !ok {
		return bad()
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || id < 0 || SkipToken(id) != tok {
		return bad()
	}
	return id, nil
}

// Under an $orderby a $skiptoken holds the place as the values of the last
// item for every field of the order, and the order itself, so that a
// token is never read under another order: the base64url (no padding) of
// "v2:" and {"o": FormatOrderBy(order), "k": [values]}. A date-time is
// its RFC 3339 text in UTC; a member that has no value is null.
const keysetPrefix = "v2:"

// maxKeysetToken bounds the text parseKeysetToken will decode: six values,
// the longest of them text such as a user name or a tracking id.
const maxKeysetToken = 4096

type keyset struct {
	Order string `json:"o"`
	Keys  []any  `json:"k"`
}

// keysetToken is the token for the items after the one whose values for
// order are keys.
func keysetToken(order []OrderItem, keys []any) string {
	k := keyset{Order: FormatOrderBy(order), Keys: make([]any, len(keys))}
	for i, v := range keys {
		if t, ok := v.(time.Time); ok {
			v = t.UTC().Format(time.RFC3339Nano)
		}
		k.Keys[i] = v
	}
	b, _ := json.Marshal(k) // strings, numbers, booleans and nulls only
	return base64.RawURLEncoding.EncodeToString(append([]byte(keysetPrefix), b...))
}

// parseKeysetToken reads a token of keysetToken made under order, each
// value by the kind of its field. Any other text is a CodeBadQuery error.
func parseKeysetToken(tok string, order []OrderItem, fields Fields) ([]any, error) {
	bad := func(why string) ([]any, error) {
		return nil, invalid(optionError(livestock.CodeBadQuery, "$skiptoken", tok,
			"$skiptoken is not one this service gave out%s; follow @odata.nextLink as it is given", why))
	}
	if len(tok) > maxKeysetToken {
		return bad("")
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(tok)
	if err != nil {
		return bad("")
	}
	text, ok := strings.CutPrefix(string(b), keysetPrefix)
	if !ok {
		return bad(" for this $orderby")
	}
	var raw struct {
		Order string            `json:"o"`
		Keys  []json.RawMessage `json:"k"`
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if dec.Decode(&raw) != nil {
		return bad("")
	}
	if raw.Order != FormatOrderBy(order) || len(raw.Keys) != len(order) {
		return bad(" for this $orderby")
	}
	keys := make([]any, len(order))
	for i, o := range order {
		if keys[i], ok = keyValue(raw.Keys[i], fields[o.Field].Kind); !ok {
			return bad("")
		}
	}
	if keysetToken(order, keys) != tok {
		return bad("")
	}
	return keys, nil
}

// keyValue reads one value of a token by its field's kind.
func keyValue(raw json.RawMessage, kind Kind) (any, bool) {
	if string(raw) == "null" {
		return nil, true
	}
	var err error
	switch kind {
	case String:
		var s string
		err = json.Unmarshal(raw, &s)
		return s, err == nil && strings.IndexByte(s, 0) < 0 // no stored text holds U+0000
	case Int:
		var n int64
		err = json.Unmarshal(raw, &n)
		return n, err == nil
	case Bool:
		var b bool
		err = json.Unmarshal(raw, &b)
		return b, err == nil
	case DateTime:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		t = t.UTC()
		return t, err == nil && t.Year() >= 1 && t.Year() <= 9999 // as a stored instant is
	}
	return nil, false
}
