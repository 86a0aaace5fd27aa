package odata

import (
	"encoding/base64"
	"strconv"
	"strings"

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
