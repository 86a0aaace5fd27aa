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

// storedText is the text of a scanned column, "" for NULL (as a LEFT JOIN
// gives for a missing row).
func storedText(what string, src any) (string, error) {
	switch v := src.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	}
	return "", fmt.Errorf("stored %s: unexpected %T", what, src)
}

// valueCol scans a text column into a livestock value read by P: NULL and
// "" are the zero value, anything else must parse. Only Drover writes these
// columns, from values it parsed when they arrived, so one that does not
// parse is the store's fault (an internal error), never the caller's, and
// is refused rather than read as a near match that would be written back
// spelled otherwise. It holds one pointer, so passing it to Scan as an any
// does not allocate.
type valueCol[T any, P textParser[T]] struct{ v *T }

// textParser reads one kind of stored value; what names it in errors.
type textParser[T any] interface {
	parse(s string) (T, error)
	what() string
}

func (c valueCol[T, P]) Scan(src any) error {
	var p P
	s, err := storedText(p.what(), src)
	if err != nil {
		return err
	}
	var v T
	if s != "" {
		if v, err = p.parse(s); err != nil {
			// %v, not %w: a bad stored value is our fault, not the caller's.
			return fmt.Errorf("stored %s %q: %v", p.what(), s, err)
		}
	}
	*c.v = v
	return nil
}

type (
	cphText     struct{}
	speciesText struct{}
	batchText   struct{}
	rfidText    struct{}
	sexText     struct{}
	stateText   struct{}
	markText    struct{}
)

func (cphText) what() string                                  { return "CPH" }
func (cphText) parse(s string) (livestock.CPH, error)         { return livestock.ParseCPH(s) }
func (speciesText) what() string                              { return "species" }
func (speciesText) parse(s string) (livestock.Species, error) { return store.ParseSpecies(s) }
func (batchText) what() string                                { return "batch number" }
func (batchText) parse(s string) (livestock.BatchNumber, error) {
	return livestock.ParseBatchNumber(s)
}
func (rfidText) what() string                                { return "RFID" }
func (rfidText) parse(s string) (livestock.RFID, error)      { return livestock.ParseRFID(s) }
func (sexText) what() string                                 { return "sex" }
func (sexText) parse(s string) (livestock.Sex, error)        { return livestock.ParseSex(s) }
func (markText) what() string                                { return "flock mark" }
func (markText) parse(s string) (livestock.FlockMark, error) { return livestock.ParseFlockMark(s) }
func (stateText) what() string                               { return "animal state" }
func (stateText) parse(s string) (livestock.AnimalState, error) {
	return livestock.ParseAnimalState(s)
}

type (
	// cphCol scans a CPH column; in their normal form CPHs parse without
	// allocating.
	cphCol = valueCol[livestock.CPH, cphText]
	// speciesCol scans a species column, spelled as store.SpeciesName
	// spells one ("" for none).
	speciesCol = valueCol[livestock.Species, speciesText]
	// batchCol scans a batch number column ("" for a deer batch).
	batchCol = valueCol[livestock.BatchNumber, batchText]
	// rfidCol scans an RFID column, held in decimal form ("" for none).
	rfidCol = valueCol[livestock.RFID, rfidText]
	// sexCol and animalStateCol scan an animal's sex and state, spelled as
	// the registration interface spells them.
	sexCol         = valueCol[livestock.Sex, sexText]
	animalStateCol = valueCol[livestock.AnimalState, stateText]
	// flockMarkCol scans a flock or herd mark.
	flockMarkCol = valueCol[livestock.FlockMark, markText]
)
