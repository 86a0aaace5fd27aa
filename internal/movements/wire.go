// Package movements is the livestock movements interface's behaviour:
// submissions (checked at once for what needs no look-up beyond the
// caller's own holdings), the background job that applies the movement
// rules to each request exactly once, and the look-ups of requests and of
// movements awaiting review. The HTTP layer decodes and answers; the rules
// themselves are pure functions in package livestock.
package movements

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/jsonwire"
	"github.com/drover-registry/drover/internal/livestock"
)

// batchWire is a batch as a review names it.
type batchWire struct {
	BatchNumber string `json:"batchNumber"`
	AnimalTotal int    `json:"animalTotal"`
}

// recordMembers are the members of a request record that the service
// writes: a client generated from the live definition posts the whole
// record, with these beside content, and they are ignored.
var recordMembers = map[string]bool{
	"requestId": true, "requestStatus": true, "requestDate": true, "updatedDate": true, "userName": true,
	"errors": true, "warnings": true, "undoSupported": true, "isContentPurged": true, "isFullUndone": true,
}

// openEnvelope returns the payload inside {"content": …}; a bare payload
// is a 400 (domain-notes §1). The record's read-only members and OData
// annotations (@odata.…) beside content are ignored; any other member is
// refused, by name.
func openEnvelope(body []byte) (json.RawMessage, error) {
	noEnvelope := livestock.Invalid("the body must be wrapped in an envelope", livestock.FieldError{
		Code: livestock.CodeNoEnvelope, Source: "/content", Message: `the body must be {"content": {…}}`})
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil || dec.More() || members == nil {
		return nil, noEnvelope
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, noEnvelope
	}
	var unknown []livestock.FieldError
	for name := range members {
		if name != "content" && !recordMembers[name] && !strings.HasPrefix(name, "@odata.") {
			unknown = append(unknown, livestock.FieldError{Code: livestock.CodeUnknownField, Source: "/" + jsonPointerEscape(name),
				Message: "property is not allowed beside content"})
		}
	}
	if len(unknown) > 0 {
		slices.SortFunc(unknown, func(a, b livestock.FieldError) int { return strings.Compare(a.Source, b.Source) })
		return nil, livestock.Invalid("the envelope has members it may not have", unknown...)
	}
	content := members["content"]
	if len(content) == 0 || string(content) == "null" {
		return nil, noEnvelope
	}
	return content, nil
}

// jsonPointerEscape escapes a member name as a JSON pointer token.
func jsonPointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// decodeStrict decodes a payload, refusing unknown properties.
func decodeStrict(data []byte, v any) error { return decodeStrictAt(data, v, "/content") }

// decodeStrictAt decodes a value that stood at JSON pointer root.
func decodeStrictAt(data []byte, v any, root string) error {
	if err := jsonwire.Decode(data, v); err != nil {
		source, msg := jsonwire.Problem(err, root)
		return livestock.Invalid("the payload cannot be read", livestock.FieldError{
			Code: livestock.CodeSchema, Source: source, Message: msg})
	}
	return nil
}

// readTrackingID checks a payload's trackingId, and makes an empty one
// none, as null is: the live schema gives it no least length.
func readTrackingID(id **string, errs *fieldErrs) {
	if *id != nil && **id == "" {
		*id = nil
	}
	if *id != nil {
		if _, err := livestock.ParseTrackingID(**id); err != nil {
			errs.add("/content/trackingId", err)
		}
	}
}

// fieldErrs collects the problems found while reading a payload.
type fieldErrs []livestock.FieldError

// add records err, which a livestock parser returned, at JSON pointer at.
func (f *fieldErrs) add(at string, err error) {
	var e *livestock.Error
	if le, ok := err.(*livestock.Error); ok {
		e = le
	}
	if e == nil || len(e.Fields) == 0 {
		*f = append(*f, livestock.FieldError{Code: livestock.CodeBadFormat, Source: at, Message: err.Error()})
		return
	}
	for _, fe := range e.Fields {
		fe.Source = at
		*f = append(*f, fe)
	}
}

// bad records a problem found while reading a payload.
func (f *fieldErrs) bad(code livestock.Code, at, value, msg string) {
	*f = append(*f, livestock.FieldError{Code: code, Source: at, Value: value, Message: msg})
}

func (f fieldErrs) err() error {
	if len(f) == 0 {
		return nil
	}
	return livestock.Invalid("the payload breaks the interface's formats", f...)
}
