package movements

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// liveTransfer is the live definition's TransferModel example, every
// member given, adapted to the sandbox: keeper1's producer sends two
// tagged sheep, one with details, and a batch to keeper2's producer.
const liveTransfer = `{"id":0,"trackingId":"live-example-1","sourceHolding":"01/100/0257","animalCount":4,
"movementDocument":{"departureDetail":{"departureHoldingType":"PRODUCER","departureDateTime":"2026-11-20T08:00:00Z",
 "departureKeeper":{"county":"Cumbria","address2":"","propertyName":"Low Farm","address1":"Fell Road","title":"Mr","telephoneNumber":"01234 567890",
  "lastName":"Keeper","postCode":"CA1 1AA","town":"Penrith","firstName":"One"},"animalTotal":4,"loadingDateTime":"2026-11-20T07:30:00Z",
 "departureOwner":{"lastName":"Keeper"},"expectedDurationOfJourney":{"hours":2,"days":0,"minutes":30}},
 "fciDetail":{"isAllAnimalsFciCompliant":false,"nonCompliantReason":"treated","holdingRestrictions":"none","withdrawalPeriodObservedText":"7 days",
  "metFCIWithdrawalPeriodCode":"WITHDRAWAL_MET","nonCompliantDevices":[{"freezebrand":null,"rfid":"0826013018100001","tagNumber":"UK0130181 00001"}]},
 "transportDetail":{"transporterAuthNumber":"UK/T1/123","transporterType":"Haulier","transportVehicleRegistrationNo":"AB12CDE",
  "transporter":{"lastName":"Haulier"},"transportHaulierName":"A. Haulier Ltd"},
 "destinationDetail":{"unloadingDateTime":"2026-11-20T11:00:00Z","arrivalDateTime":"2026-11-20T10:45:00Z","destinationKeeper":{"lastName":"Two"},
  "destinationHoldingType":"PRODUCER","hasKeeperChanged":true,"totalAnimalsReceived":4},
 "documentType":"CLA","movementDocumentRef":"CLA-0001"},
"deviceApplication":{"dateOfApplication":"2026-11-19T09:00:00Z","endBirthPeriod":"2026-03-20T00:00:00Z","breed":"Texel","beginBirthPeriod":"2026-03-01T00:00:00Z"},
"transferDate":"2026-11-20T08:00:00Z","processingFlags":[{"processingFlagId":2,"name":"185"}],"saleDate":null,
"movementGroups":[{"devicesWithDetail":[{"beginBirthPeriod":"2026-03-01T00:00:00Z","breed":"Texel X","device":{"freezebrand":null,"rfid":null,"tagNumber":"UK0130181 00002"},
  "gender":"Female","endBirthPeriod":"2026-03-05T00:00:00Z","mgtTag":{"identifier":"Ewe 2"}}],
 "devices":[{"freezebrand":null,"rfid":"0826013018100001","tagNumber":"UK013018100001"}],
 "batches":[{"idMark":"red spot","stockType":"Ewes","batchNumber":"UK130181","animalTotal":2}],
 "fromSubLocation":null,"vendorHolding":null,"toSubLocation":"isolation"}],
"species":"Sheep","destinationHolding":"01/100/0264","saleId":null,"transportHaulierName":"A. Haulier Ltd","userHolding":"01/100/0257",
"transportVehicleRegistrationNo":"AB12CDE"}`

// TestDecodeLiveTransfer: the definition's own example is read with its
// meaning and stored in the live shape.
func TestDecodeLiveTransfer(t *testing.T) {
	t.Parallel()
	d, err := testVocab(t).decodeTransfer([]byte(liveTransfer))
	if err != nil {
		t.Fatal(err)
	}
	if d.t.TransferDate.String() != "2026-11-20" || d.at.String() != "2026-11-20T08:00:00Z" || d.t.AnimalCount != 4 ||
		len(d.t.Devices()) != 2 || len(d.t.Batches()) != 1 || !slicesEqual(d.t.Flags, []string{"185"}) || len(d.t.DocumentTotals) != 2 {
		t.Errorf("transfer read as %+v", d.t)
	}
	if got := d.t.Devices()[1].At; got != "/content/movementGroups/0/devicesWithDetail/0/device" {
		t.Errorf("a detailed device is at %s", got)
	}
	var back map[string]any
	if err := json.Unmarshal(normalised(d.model), &back); err != nil {
		t.Fatal(err)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(liveTransfer), &sent); err != nil {
		t.Fatal(err)
	}
	// What is stored is what was sent, without the nulls and the live
	// model's own id, with the tag and the RFIDs in
	// their normal forms.
	delete(sent, "id")
	for _, k := range []string{"saleDate", "saleId"} {
		delete(sent, k)
	}
	g := sent["movementGroups"].([]any)[0].(map[string]any)
	delete(g, "fromSubLocation")
	delete(g, "vendorHolding")
	g["devices"] = []any{map[string]any{"rfid": "0826013018100001", "tagNumber": "UK0130181 00001"}}
	g["devicesWithDetail"].([]any)[0].(map[string]any)["device"] = map[string]any{"rfid": "0826013018100002", "tagNumber": "UK0130181 00002"}
	doc := sent["movementDocument"].(map[string]any)
	doc["fciDetail"].(map[string]any)["nonCompliantDevices"] = []any{map[string]any{"rfid": "0826013018100001", "tagNumber": "UK0130181 00001"}}
	if diff := cmp.Diff(sent, back); diff != "" {
		t.Errorf("stored content (-sent +stored):\n%s", diff)
	}
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// TestDecodeAliases: Drover's earlier shapes are read with the same
// meaning and stored in the live one.
func TestDecodeAliases(t *testing.T) {
	t.Parallel()
	const head = `"species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01/100/0264"`
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain date, flags as names",
			`{"transferDate":"2026-11-20",` + head + `,"animalCount":1,"processingFlags":["185","SLAU"],"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]}`,
			`{"transferDate":"2026-11-20T00:00:00Z",` + head + `,"animalCount":1,"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001","rfid":"0826013018100001"}]}],` +
				`"processingFlags":[{"processingFlagId":2,"name":"185"},{"processingFlagId":101,"name":"SLAU"}]}`},
		{"flat device with details, old breed code",
			`{"transferDate":"2026-11-20",` + head + `,"animalCount":1,"movementGroups":[{"devicesWithDetail":[{"tagNumber":"UK0130181 00001","breed":"TEX","sex":"Male","dateOfBirth":"2026-03-01"}]}]}`,
			`{"transferDate":"2026-11-20T00:00:00Z",` + head + `,"animalCount":1,"movementGroups":[{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00001","rfid":"0826013018100001"},` +
				`"breed":"Texel","gender":"Male","beginBirthPeriod":"2026-03-01T00:00:00Z","endBirthPeriod":"2026-03-01T00:00:00Z"}]}]}`},
		{"the flag by its id alone, deviceApplication as a date",
			`{"transferDate":"2026-11-20T10:00:00+01:00",` + head + `,"animalCount":1,"processingFlags":[{"processingFlagId":8}],"deviceApplication":"2026-11-19","movementGroups":[{"devices":[{"rfid":"UK0130181 00001"}]}]}`,
			`{"transferDate":"2026-11-20T10:00:00+01:00",` + head + `,"animalCount":1,"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001","rfid":"0826013018100001"}]}],` +
				`"deviceApplication":{"dateOfApplication":"2026-11-19T00:00:00Z"},"processingFlags":[{"processingFlagId":8,"name":"InBus"}]}`},
		{"a correction by its earlier name",
			`{"requestToBeCorrected_ID":7,"transferDate":"2026-11-20",` + head + `,"animalCount":2,"movementGroups":[{"batches":[{"batchNumber":"UK130181","animalTotal":2}]}]}`,
			`{"requestToBeUndone_ID":7,"transferDate":"2026-11-20T00:00:00Z",` + head + `,"animalCount":2,"movementGroups":[{"batches":[{"batchNumber":"UK130181","animalTotal":2}]}]}`},
		{"deer: by freezebrand, a batch by its total",
			`{"transferDate":"2026-11-20","species":"Deer","userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01/100/0264","animalCount":6,` +
				`"movementGroups":[{"devices":[{"freezebrand":" H17 "}],"batches":[{"animalTotal":5,"stockType":"Hinds","batchNumber":null}]}]}`,
			`{"transferDate":"2026-11-20T00:00:00Z","species":"Deer","userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01/100/0264","animalCount":6,` +
				`"movementGroups":[{"batches":[{"animalTotal":5,"stockType":"Hinds"}],"devices":[{"freezebrand":"H17"}]}]}`},
		{"an earlier FCI code",
			`{"transferDate":"2026-11-20",` + head + `,"animalCount":1,"movementDocument":{"fciDetail":{"metFCIWithdrawalPeriodCode":"Yes"}},"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]}`,
			`{"transferDate":"2026-11-20T00:00:00Z",` + head + `,"animalCount":1,"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001","rfid":"0826013018100001"}]}],` +
				`"movementDocument":{"fciDetail":{"metFCIWithdrawalPeriodCode":"WITHDRAWAL_MET"}}}`},
	} {
		d, err := testVocab(t).decodeTransfer([]byte(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := string(normalised(d.model)); got != tc.want {
			t.Errorf("%s: stored\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

// TestDecodeRefusals: each bad value is refused at its own pointer.
func TestDecodeRefusals(t *testing.T) {
	t.Parallel()
	const head = `"userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01/100/0264","animalCount":1`
	sheep := func(extra, groups string) string {
		return `{"transferDate":"2026-11-20","species":"Sheep",` + head + extra + `,"movementGroups":[` + groups + `]}`
	}
	const tag = `{"devices":[{"tagNumber":"UK0130181 00001"}]}`
	for _, tc := range []struct {
		name, in string
		code     livestock.Code
		at       string
	}{
		{"both targets, differing", sheep(`,"requestToBeUndone_ID":7,"requestToBeCorrected_ID":8`, tag), livestock.CodeSchema, "/content/requestToBeCorrected_ID"},
		{"a date-time without its offset", `{"transferDate":"2026-11-20T10:00:00","species":"Sheep",` + head + `,"movementGroups":[` + tag + `]}`, livestock.CodeBadFormat, "/content/transferDate"},
		{"a sale date-time out of range", sheep(`,"saleDate":"2026-11-20T24:00:00Z"`, tag), livestock.CodeBadFormat, "/content/saleDate"},
		{"a sheep batch without its number", sheep("", `{"batches":[{"animalTotal":1}]}`), livestock.CodeMissing, "/content/movementGroups/0/batches/0/batchNumber"},
		{"a sheep by freezebrand", sheep("", `{"devices":[{"freezebrand":"A1"}]}`), livestock.CodeMissing, "/content/movementGroups/0/devices/0/tagNumber"},
		{"a stock type of goats", sheep("", `{"batches":[{"batchNumber":"UK130181","animalTotal":1,"stockType":"Total Goats"}]}`), livestock.CodeBadEnum, "/content/movementGroups/0/batches/0/stockType"},
		{"a goat breed on a sheep", sheep("", `{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00001"},"breed":"Boer"}]}`), livestock.CodeBadEnum, "/content/movementGroups/0/devicesWithDetail/0/breed"},
		{"nested and flat tags differ", sheep("", `{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00001"},"tagNumber":"UK0130181 00002"}]}`), livestock.CodeSchema, "/content/movementGroups/0/devicesWithDetail/0/tagNumber"},
		{"a bad nested tag", sheep("", `{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 0000"}}]}`), livestock.CodeBadFormat, "/content/movementGroups/0/devicesWithDetail/0/device/tagNumber"},
		{"half a birth period", sheep("", `{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00001"},"beginBirthPeriod":"2026-01-01T00:00:00Z"}]}`), livestock.CodeMissing, "/content/movementGroups/0/devicesWithDetail/0/endBirthPeriod"},
		{"a birth period backwards", sheep("", `{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00001"},"beginBirthPeriod":"2026-01-02","endBirthPeriod":"2026-01-01"}]}`), livestock.CodeBirthOrder, "/content/movementGroups/0/devicesWithDetail/0/endBirthPeriod"},
		{"a birth period too long", sheep("", `{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00001"},"beginBirthPeriod":"2026-01-01","endBirthPeriod":"2026-02-02"}]}`), livestock.CodeBirthSpan, "/content/movementGroups/0/devicesWithDetail/0/endBirthPeriod"},
		{"an unknown flag id", sheep(`,"processingFlags":[{"processingFlagId":999}]`, tag), livestock.CodeBadEnum, "/content/processingFlags/0/processingFlagId"},
		{"a flag without a name", sheep(`,"processingFlags":[{}]`, tag), livestock.CodeMissing, "/content/processingFlags/0/name"},
		{"a flag's id naming another flag than its name", sheep(`,"processingFlags":[{"processingFlagId":3,"name":"185"}]`, tag), livestock.CodeSchema, "/content/processingFlags/0/processingFlagId"},
		{"a flag's name with an id no flag has", sheep(`,"processingFlags":[{"processingFlagId":999,"name":"185"}]`, tag), livestock.CodeBadEnum, "/content/processingFlags/0/processingFlagId"},
		{"a flag with another member", sheep(`,"processingFlags":[{"name":"185","code":1}]`, tag), livestock.CodeSchema, "/content/processingFlags/0"},
		{"deviceApplication not a date", sheep(`,"deviceApplication":"by hand"`, tag), livestock.CodeBadFormat, "/content/deviceApplication/dateOfApplication"},
		{"deviceApplication without its date", sheep(`,"deviceApplication":{"breed":"Texel"}`, tag), livestock.CodeMissing, "/content/deviceApplication/dateOfApplication"},
		{"a document type not in standing data", sheep(`,"movementDocument":{"documentType":"XYZ","movementDocumentRef":"1"}`, tag), livestock.CodeBadEnum, "/content/movementDocument/documentType"},
		{"a document reference without its type", sheep(`,"movementDocument":{"movementDocumentRef":"1"}`, tag), livestock.CodeMissing, "/content/movementDocument/documentType"},
		{"a document time without its offset", sheep(`,"movementDocument":{"departureDetail":{"departureDateTime":"2026-11-20T08:00:00"}}`, tag), livestock.CodeBadFormat, "/content/movementDocument/departureDetail/departureDateTime"},
		{"a transporter type not in standing data", sheep(`,"movementDocument":{"transportDetail":{"transporterType":"Horse"}}`, tag), livestock.CodeBadEnum, "/content/movementDocument/transportDetail/transporterType"},
		{"an FCI code not in standing data", sheep(`,"movementDocument":{"fciDetail":{"metFCIWithdrawalPeriodCode":"MAYBE"}}`, tag), livestock.CodeBadEnum, "/content/movementDocument/fciDetail/metFCIWithdrawalPeriodCode"},
		{"a member the document does not have", sheep(`,"movementDocument":{"colour":"red"}`, tag), livestock.CodeSchema, "/content"}, // the OpenAPI validator names it first
	} {
		_, err := testVocab(t).decodeTransfer([]byte(tc.in))
		e, ok := err.(*livestock.Error)
		if !ok || len(e.Fields) != 1 || e.Fields[0].Code != tc.code || e.Fields[0].Source != tc.at {
			t.Errorf("%s: %v, want %s at %s", tc.name, err, tc.code, tc.at)
			if ok {
				t.Logf("%+v", e.Fields)
			}
		}
	}
}

// TestDecodeUndo: the live undoRequestId, with trackingId, flags and the
// live model's id; Drover's earlier requestToBeUndone_ID; both, agreeing
// or not.
func TestDecodeUndo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		at       string
	}{
		{`{"id":0,"undoRequestId":42,"trackingId":"undo-1","processingFlags":[{"processingFlagId":0,"name":"InBus"}]}`,
			`{"undoRequestId":42,"trackingId":"undo-1","processingFlags":[{"processingFlagId":8,"name":"InBus"}]}`, ""},
		{`{"requestToBeUndone_ID":42}`, `{"undoRequestId":42}`, ""},
		{`{"requestToBeUndone_ID":42,"undoRequestId":42}`, `{"undoRequestId":42}`, ""},
		{`{"requestToBeUndone_ID":41,"undoRequestId":42}`, "", "/content/requestToBeUndone_ID"},
		{`{"trackingId":"x"}`, "", "/content/undoRequestId"},
		{`{"undoRequestId":0}`, "", "/content/undoRequestId"},
		{`{"undoRequestId":1,"trackingId":"` + strings.Repeat("x", 37) + `"}`, "", "/content/trackingId"},
	} {
		m, _, err := testVocab(t).decodeUndo([]byte(tc.in))
		if tc.at != "" {
			e, ok := err.(*livestock.Error)
			if !ok || e.Fields[0].Source != tc.at {
				t.Errorf("%s: %v, want a refusal at %s", tc.in, err, tc.at)
			}
			continue
		}
		if err != nil || string(normalised(m)) != tc.want {
			t.Errorf("%s: %s, %v; want %s", tc.in, normalised(m), err, tc.want)
		}
	}
}

// TestOpenEnvelope: a generated client posts the whole record; what the
// service writes is ignored, anything else is refused by name.
func TestOpenEnvelope(t *testing.T) {
	t.Parallel()
	whole := `{"updatedDate":"0001-01-01T00:00:00+00:00","requestDate":"0001-01-01T00:00:00+00:00","requestStatus":"NotAvailable","userName":null,` +
		`"warnings":null,"content":{"undoRequestId":1},"requestId":0,"errors":[],"undoSupported":false,"isContentPurged":false,"isFullUndone":false,"@odata.type":"#UndoRequest"}`
	if c, err := openEnvelope([]byte(whole)); err != nil || string(c) != `{"undoRequestId":1}` {
		t.Errorf("the whole record: %s, %v", c, err)
	}
	for body, want := range map[string]livestock.FieldError{
		`{"content":{},"colour":"red"}`: {Code: livestock.CodeUnknownField, Source: "/colour"},
		`{"content":null}`:              {Code: livestock.CodeNoEnvelope, Source: "/content"},
		`{"requestId":0}`:               {Code: livestock.CodeNoEnvelope, Source: "/content"},
		`{"content":{}} {}`:             {Code: livestock.CodeNoEnvelope, Source: "/content"},
		`[{"content":{}}]`:              {Code: livestock.CodeNoEnvelope, Source: "/content"},
	} {
		_, err := openEnvelope([]byte(body))
		e, ok := err.(*livestock.Error)
		if !ok || e.Fields[0].Code != want.Code || e.Fields[0].Source != want.Source {
			t.Errorf("%s: %v, want %s at %s", body, err, want.Code, want.Source)
		}
	}
}
