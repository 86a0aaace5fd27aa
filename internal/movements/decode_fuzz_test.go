package movements

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// checkPayloadError fails t unless err is a KindInvalid *livestock.Error
// whose every field has a code and a message and names the field it is
// about with a JSON pointer into the envelope.
func checkPayloadError(t *testing.T, content []byte, err error) {
	t.Helper()
	var e *livestock.Error
	if !errors.As(err, &e) || e.Kind != livestock.KindInvalid || len(e.Fields) == 0 {
		t.Fatalf("%q: error %#v is not an invalid-payload error", content, err)
	}
	for _, f := range e.Fields {
		if f.Code == "" || f.Message == "" || (f.Source != "/content" && !strings.HasPrefix(f.Source, "/content/") && f.Code != livestock.CodeUnknownField) {
			t.Fatalf("%q: error field %+v names no field of the payload", content, f)
		}
	}
}

// transferSeeds are payloads of every shape a transfer takes, published
// examples first, then near misses and nasty ones.
var transferSeeds = []string{
	`{"transferDate":"2026-11-20","species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01/100/0258","animalCount":2,` +
		`"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"},{"rfid":"0826013018100002"}],"batches":[{"batchNumber":"UK130181","animalTotal":1}]}],"trackingId":"abc-1"}`,
	`{"transferDate":"2026-11-20","species":"Goats","userHolding":"0035","sourceHolding":"01/100/0257","destinationHolding":"0035","animalCount":1,` +
		`"movementGroups":[{"devicesWithDetail":[{"tagNumber":"UK130183 00001","breed":"x"}]}],"processingFlags":["SLAU"]}`,
	`{"requestToBeCorrected_ID":7,"transferDate":"2026-11-20","species":"Deer","userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01%2f100%2f0258","animalCount":1}`,
	`{"transferDate":"2026-02-30","species":"Goat","userHolding":"1/2/3","sourceHolding":"","destinationHolding":"0000","animalCount":-1}`,
	`{"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001","rfid":"0826013018100002"},{},{"rfid":"ffff"},{"rfid":"8000F9E6D2B8A2B1"}]}]}`,
	`{"trackingId":"` + strings.Repeat("x", 1000) + `","saleDate":"2026-11-20T00:00:00Z"}`,
	`{"species":"Sh\u0000eep","userHolding":"01\/100\/0257","x":1}`,
	"{\"species\":\"\xff\xfe\"}",
	liveTransfer,
	`{"requestToBeUndone_ID":7,"requestToBeCorrected_ID":8,"transferDate":"2026-11-20T25:00:00Z","species":"Deer","userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01/100/0258","animalCount":1,` +
		`"movementGroups":[{"batches":[{"animalTotal":1,"stockType":"Ewes"}],"devices":[{"freezebrand":" A1 "},{"freezebrand":""}]}],"processingFlags":[{"processingFlagId":999},{},"185",{"name":"x","extra":1}],"deviceApplication":"soon"}`,
	`{"animalCount":1e400}`, `{"animalCount":"3"}`, `[]`, `null`, `{} {}`, `{`, ``,
}

// FuzzDecodeTransfer: a transfer payload is decoded without panic; a
// refusal names the fields at fault; an accepted payload's normalised
// form is a fixed point (decoding it again gives the same transfer and
// the same bytes), so what is stored reads back as what was checked.
func FuzzDecodeTransfer(f *testing.F) {
	for _, s := range transferSeeds {
		f.Add([]byte(s))
	}
	v := testVocab(f)
	f.Fuzz(func(t *testing.T, content []byte) {
		d, err := v.decodeTransfer(content)
		if err != nil {
			checkPayloadError(t, content, err)
			return
		}
		stored := normalised(d.model)
		d2, err := v.decodeTransfer(stored)
		if err != nil {
			t.Fatalf("%q: the normalised payload %s is refused: %v", content, stored, err)
		}
		if !reflect.DeepEqual(d.t, d2.t) || d.at != d2.at || d.target != d2.target {
			t.Fatalf("%q: the normalised payload %s reads back as another transfer:\n%+v\n%+v", content, stored, d, d2)
		}
		if again := normalised(d2.model); string(again) != string(stored) {
			t.Fatalf("%q: normalising twice gives %s, then %s", content, stored, again)
		}
	})
}

// FuzzDecodeReview: as FuzzDecodeTransfer, for review payloads, with
// tags compared by their printed form.
func FuzzDecodeReview(f *testing.F) {
	for _, s := range []string{
		`{"holding":"01/100/0264","reviewMovement":{"requestId":42,"isAccepted":true,"arrivalDate":"2026-11-21","animalTotal":2,` +
			`"acceptedDevices":[{"tagNumber":"UK0130181 00001"}],"rejectedDevices":[{"tagNumber":"UK130183 00002"}],` +
			`"acceptedBatches":[{"batchNumber":"UK 130181","animalTotal":1}],"rejectedBatches":[]}}`,
		`{"holding":"01%2f100%2f0264","reviewMovement":{"requestId":0,"isAccepted":false,"arrivalDate":"21/11/2026"}}`,
		`{"holding":"","reviewMovement":{"requestId":-1,"acceptedDevices":[{"tagNumber":"UK0130181 0000１"}],"acceptedBatches":[{"batchNumber":"\u0000"}]}}`,
		`{"holding":"01/100/0264","reviewMovement":{"requestId":9223372036854775808}}`,
		`{"holding":"01/100/0264","reviewMovement":null,"extra":true}`,
		"{\"holding\":\"\xff\"}", `{}`, `1`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		r, w, err := decodeReview(content)
		if err != nil {
			checkPayloadError(t, content, err)
			return
		}
		stored := normalised(w)
		r2, w2, err := decodeReview(stored)
		if err != nil {
			t.Fatalf("%q: the normalised payload %s is refused: %v", content, stored, err)
		}
		// A review's tags are read as sheep tags first, so a goat tag's
		// six-digit form (UK130183 00002) reads back from its printed
		// form (UK0130183 00002) as a sheep tag: the same printed tag,
		// which is all the job compares (livestock.CheckReview).
		if a, b := fmt.Sprintf("%+v", r), fmt.Sprintf("%+v", r2); a != b {
			t.Fatalf("%q: the normalised payload %s reads back as another review:\n%s\n%s", content, stored, a, b)
		}
		if again := normalised(w2); string(again) != string(stored) {
			t.Fatalf("%q: normalising twice gives %s, then %s", content, stored, again)
		}
	})
}

// FuzzOpenEnvelope: every POST body is opened without panic; a refusal is
// S014 at /content, and an accepted body's content is one JSON value.
func FuzzOpenEnvelope(f *testing.F) {
	v := testVocab(f)
	for _, s := range []string{`{"content":{"requestToBeUndone_ID":1}}`, `{"content":null}`, `{"content":1,"x":2}`, `{"transferDate":"2026-11-20"}`,
		`{"requestId":0,"requestStatus":"NotAvailable","errors":null,"warnings":[],"content":{"undoRequestId":1},"@odata.type":"#x"}`, `{"content":{},"content":null}`,
		`{"content":{}} trailing`, `{"content":` + strings.Repeat("[", 100), "{\"content\":\"\xff\"}", `{"Content":{}}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		content, err := openEnvelope(body)
		if err != nil {
			checkPayloadError(t, body, err)
			if c := err.(*livestock.Error).Fields[0].Code; c != livestock.CodeNoEnvelope && c != livestock.CodeUnknownField {
				t.Fatalf("%q: code %s, want %s or %s", body, c, livestock.CodeNoEnvelope, livestock.CodeUnknownField)
			}
			return
		}
		if _, _, err := v.decodeUndo(content); err != nil {
			checkPayloadError(t, content, err)
		}
	})
}
