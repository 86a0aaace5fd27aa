package odata

import (
	"errors"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// testFields has a field of every kind, named as the movements collections
// name theirs.
var testFields = Fields{
	"movementDate":  {Kind: DateTime},
	"requestDate":   {Kind: DateTime},
	"species":       {Kind: String},
	"requestStatus": {Kind: String, Values: []string{"Pending", "Success", "Fail", "CompletedWarning"}, Read: oldStatus},
	"requestId":     {Kind: Int},
	"isFullUndone":  {Kind: Bool},
	"holding":       {Kind: String, Read: livestock.NormalCPH, Unordered: true},
}

// oldStatus reads a status's old name as the live one, as the stores'
// requestStatus field does.
func oldStatus(s string) (string, error) {
	if s == "Failed" {
		return "Fail", nil
	}
	return s, nil
}

const allowed = "holding, isFullUndone, movementDate, requestDate, requestId, requestStatus, species"

func cmpr(field string, op Op, v any) *Comparison { return &Comparison{Field: field, Op: op, Value: v} }

func utc(y int, mo time.Month, d, h, mi, s int) time.Time {
	return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
}

// fieldErrors is the fields of err, which must be a *livestock.Error of
// KindInvalid.
func fieldErrors(t *testing.T, err error) []livestock.FieldError {
	t.Helper()
	var e *livestock.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *livestock.Error", err, err)
	}
	if e.Kind != livestock.KindInvalid {
		t.Errorf("Kind = %v, want invalid", e.Kind)
	}
	return e.Fields
}

// filterErr is the one field of a $filter error.
func filterErr(code livestock.Code, value, message string) []livestock.FieldError {
	return []livestock.FieldError{{Code: code, Message: message, Source: "query:$filter", Value: value}}
}
