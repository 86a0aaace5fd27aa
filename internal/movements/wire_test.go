package movements

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestPayloadTypeErrors: a value of the wrong JSON type is reported at its
// own JSON pointer, in JSON's terms, never in Go's.
func TestPayloadTypeErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		content string
		want    livestock.FieldError
	}{
		{`{"animalCount":"three"}`, livestock.FieldError{Code: livestock.CodeSchema, Source: "/content/animalCount",
			Message: "/content/animalCount must be an integer, not string"}},
		{`{"movementGroups":{}}`, livestock.FieldError{Code: livestock.CodeSchema, Source: "/content/movementGroups",
			Message: "/content/movementGroups must be an array, not object"}},
		{`{"movementGroups":[{"devices":[{"tagNumber":7}]}]}`, livestock.FieldError{Code: livestock.CodeSchema,
			Source: "/content/movementGroups/devices/tagNumber", Message: "/content/movementGroups/devices/tagNumber must be a string, not number"}},
		{`[]`, livestock.FieldError{Code: livestock.CodeSchema, Source: "/content",
			Message: "/content must be an object, not array"}},
		{`{"species":`, livestock.FieldError{Code: livestock.CodeSchema, Source: "/content",
			Message: "unexpected EOF"}},
	} {
		_, err := testVocab(t).decodeTransfer([]byte(tt.content))
		e, ok := err.(*livestock.Error)
		if !ok || len(e.Fields) != 1 {
			t.Errorf("decodeTransfer(%s) = %v; want one field error", tt.content, err)
			continue
		}
		if diff := cmp.Diff(tt.want, e.Fields[0]); diff != "" {
			t.Errorf("decodeTransfer(%s) (-want +got):\n%s", tt.content, diff)
		}
	}
}
