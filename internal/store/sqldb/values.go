package sqldb

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// fieldErrorJSON is how a livestock.FieldError is kept in a JSON column:
// the domain type has no JSON tags, and this shape must not change when
// it does.
type fieldErrorJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
	Value   string `json:"value,omitempty"`
}

// encodeFieldErrors writes a request's errors and warnings as JSON arrays.
func encodeFieldErrors(errs, warns []livestock.FieldError) (string, string, error) {
	var out [2]string
	for i, list := range [][]livestock.FieldError{errs, warns} {
		js := make([]fieldErrorJSON, len(list))
		for j, f := range list {
			js[j] = fieldErrorJSON{Code: string(f.Code), Message: f.Message, Source: f.Source, Value: f.Value}
		}
		b, err := json.Marshal(js)
		if err != nil {
			return "", "", err
		}
		out[i] = string(b)
	}
	return out[0], out[1], nil
}

// decodeFieldErrors reads what encodeFieldErrors wrote; none is nil.
func decodeFieldErrors(s string) ([]livestock.FieldError, error) {
	if s == "[]" { // most requests: no errors, or no warnings
		return nil, nil
	}
	var js []fieldErrorJSON
	if err := json.Unmarshal([]byte(s), &js); err != nil {
		return nil, fmt.Errorf("stored field errors: %w", err)
	}
	if len(js) == 0 {
		return nil, nil
	}
	list := make([]livestock.FieldError, len(js))
	for i, f := range js {
		list[i] = livestock.FieldError{Code: livestock.Code(f.Code), Message: f.Message, Source: f.Source, Value: f.Value}
	}
	return list, nil
}

// encodeStrings writes a list (a movement's flags) as a JSON array.
func encodeStrings(list []string) (string, error) { return encodeList(list) }

// decodeStrings reads what encodeStrings wrote; none is nil.
func decodeStrings(s string) ([]string, error) { return decodeList[string](s) }

// encodeInts writes a list of ids (a movement's duplicates) as a JSON array.
func encodeInts(list []int64) (string, error) { return encodeList(list) }

// decodeInts reads what encodeInts wrote; none is nil.
func decodeInts(s string) ([]int64, error) { return decodeList[int64](s) }

func encodeList[T any](list []T) (string, error) {
	if list == nil {
		list = []T{}
	}
	b, err := json.Marshal(list)
	return string(b), err
}

func decodeList[T any](s string) ([]T, error) {
	var list []T
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		return nil, fmt.Errorf("stored list: %w", err)
	}
	if len(list) == 0 {
		return nil, nil
	}
	return list, nil
}

// nullString binds "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullInt binds 0 as NULL.
func nullInt(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

// notNilBytes binds nil as an empty value, for a NOT NULL column.
func notNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// affected turns an update that changed no row into KindNotFound.
func affected(res sql.Result, err error, format string, args ...any) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return notFound(format, args...)
	}
	return nil
}

// marks returns "$first, $first+1, …", n parameters in all.
func marks(first, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", first+i)
	}
	return b.String()
}

// cphCol scans a CPH column: NULL and "" scan as the zero CPH (no
// holding), anything else must be a CPH. Stored CPHs were parsed when they
// arrived, so one that does not parse is the store's fault (an internal
// error), never the caller's. In their normal form they parse without
// allocating.
type cphCol struct{ c *livestock.CPH }

func (h cphCol) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case nil:
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("stored CPH: unexpected %T", src)
	}
	if s == "" {
		*h.c = livestock.CPH{}
		return nil
	}
	c, err := livestock.ParseCPH(s)
	if err != nil {
		// %v, not %w: a bad stored value is our fault, not the caller's.
		return fmt.Errorf("stored CPH %q: %v", s, err)
	}
	*h.c = c
	return nil
}

// speciesCol scans a species column, spelled as store.SpeciesName spells
// one ("" for none; NULL, as a LEFT JOIN gives for a missing row, is none
// too). Only Drover writes the column, so a spelling that does not parse
// is the store's fault, and is refused rather than read as a near match
// that would be written back spelled otherwise.
type speciesCol struct{ sp *livestock.Species }

func (c speciesCol) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case nil:
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("stored species: unexpected %T", src)
	}
	sp, err := store.ParseSpecies(s)
	if err != nil {
		return fmt.Errorf("stored species: %v", err)
	}
	*c.sp = sp
	return nil
}
