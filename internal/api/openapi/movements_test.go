package openapi

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// movementOps is every operation of the livestock movements interface
// v1.0, with its success status, its success schema and the error statuses
// it documents beyond those every /v1 operation has (400, 401, 429, 500,
// 503, 504).
var movementOps = []struct {
	id, method, path string
	status, schema   string
	errors           []string
}{
	{"listTransferRequests", "GET", "/v1/TransferRequests", "200", "TransferRequestCollection", nil},
	{"createTransferRequest", "POST", "/v1/TransferRequests", "201", "TransferRequest", []string{"403", "413"}},
	{"getTransferRequest", "GET", "/v1/TransferRequests({requestId})", "200", "TransferRequest", []string{"403", "404"}},
	{"listCorrectTransferRequests", "GET", "/v1/CorrectTransferRequests", "200", "CorrectTransferRequestCollection", nil},
	{"createCorrectTransferRequest", "POST", "/v1/CorrectTransferRequests", "201", "CorrectTransferRequest", []string{"403", "413"}},
	{"getCorrectTransferRequest", "GET", "/v1/CorrectTransferRequests({requestId})", "200", "CorrectTransferRequest", []string{"403", "404"}},
	{"listReviewHoldingMovementRequests", "GET", "/v1/ReviewHoldingMovementRequests", "200", "ReviewHoldingMovementRequestCollection", nil},
	{"createReviewHoldingMovementRequest", "POST", "/v1/ReviewHoldingMovementRequests", "201", "ReviewHoldingMovementRequest", []string{"403", "413"}},
	{"getReviewHoldingMovementRequest", "GET", "/v1/ReviewHoldingMovementRequests({requestId})", "200", "ReviewHoldingMovementRequest", []string{"403", "404"}},
	{"listUndoRequests", "GET", "/v1/UndoRequests", "200", "UndoRequestCollection", nil},
	{"createUndoRequest", "POST", "/v1/UndoRequests", "201", "UndoRequest", []string{"403", "413"}},
	{"getUndoRequest", "GET", "/v1/UndoRequests({requestId})", "200", "UndoRequest", []string{"403", "404"}},
	{"validateHoldings", "POST", "/v1/Holdings/ValidHoldings", "200", "ValidHoldingsResultEnvelope", []string{"413"}},
	{"listHoldingMovementsForReview", "GET", "/v1/HoldingMovementForReviews(species={species},holding={holding})", "200", "MovementForReviewCollection", []string{"403", "404"}},
	{"listHoldingMovementsForReviewBySpecies", "GET", "/v1/HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})", "200", "MovementForReviewCollection", []string{"403", "404"}},
}

// TestMovementOperations: each operation of the movements interface has
// its operationId, the Movements tag, its success response and exactly the
// error responses that apply to it.
func TestMovementOperations(t *testing.T) {
	t.Parallel()
	d := load(t)
	for _, m := range movementOps {
		t.Run(m.id, func(t *testing.T) {
			item := d.spec.Paths.Find(m.path)
			if item == nil || item.GetOperation(m.method) == nil {
				t.Fatalf("no operation %s %s", m.method, m.path)
			}
			op := item.GetOperation(m.method)
			if op.OperationID != m.id {
				t.Errorf("operationId %q, want %q", op.OperationID, m.id)
			}
			if !slices.Equal(op.Tags, []string{"Movements"}) {
				t.Errorf("tags %v, want [Movements]", op.Tags)
			}
			if op.Description == "" {
				t.Error("no description")
			}
			want := append([]string{m.status, "400", "401", "429", "500", "503", "504"}, m.errors...)
			slices.Sort(want)
			if diff := cmp.Diff(want, slices.Sorted(maps.Keys(op.Responses.Map()))); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
			ok := op.Responses.Value(m.status)
			if ok == nil || ok.Value.Content.Get("application/json") == nil {
				t.Fatalf("no application/json %s response", m.status)
			}
			schema := ok.Value.Content.Get("application/json").Schema
			if m.method == "GET" && strings.Contains(m.path, "{requestId}") && len(schema.Value.AnyOf) == 2 {
				// One request is the record, or under $select the members named.
				if sel := schema.Value.AnyOf[1].Ref; sel != "#/components/schemas/MovementRequestSelection" {
					t.Errorf("%s response's second form %q, want MovementRequestSelection", m.status, sel)
				}
				schema = schema.Value.AnyOf[0]
			}
			if ref := schema.Ref; ref != "#/components/schemas/"+m.schema {
				t.Errorf("%s response schema %q, want %s", m.status, ref, m.schema)
			}
			if (m.method == "POST") != (op.RequestBody != nil) {
				t.Errorf("request body %v for %s", op.RequestBody != nil, m.method)
			}
		})
	}
}

// TestCountOperations: each request collection counts at /$count, with
// $filter, answering the number as text.
func TestCountOperations(t *testing.T) {
	t.Parallel()
	d := load(t)
	for _, name := range []string{"TransferRequests", "CorrectTransferRequests", "ReviewHoldingMovementRequests", "UndoRequests"} {
		op := d.spec.Paths.Find("/v1/" + name + "/$count").GetOperation("GET")
		if op == nil || op.OperationID != "count"+name {
			t.Fatalf("no operation count%s", name)
		}
		ok := op.Responses.Value("200")
		if ok == nil || ok.Value.Content.Get("text/plain") == nil || ok.Value.Content.Get("text/plain").Schema.Value.Pattern != "^[0-9]+$" {
			t.Errorf("count%s: no text/plain 200 response of digits", name)
		}
		if len(op.Parameters) == 0 || op.Parameters[0].Ref != "#/components/parameters/Filter" {
			t.Errorf("count%s: does not take $filter first", name)
		}
	}
}

// TestMovementParameters: collections share the paging parameters as
// components, and the lookups of movements for review take species and
// holding from the path.
func TestMovementParameters(t *testing.T) {
	t.Parallel()
	d := load(t)
	refs := func(path, method string) []string {
		item := d.spec.Paths.Find(path)
		var out []string
		for _, p := range append(item.Parameters, item.GetOperation(method).Parameters...) {
			out = append(out, strings.TrimPrefix(p.Ref, "#/components/parameters/"))
		}
		return out
	}
	collection := []string{"XCorrelationID", "LICorrelationID", "Filter", "Top", "Skip", "SkipToken", "Expand", "Select", "OrderBy", "InlineCount", "Format"}
	single := []string{"XCorrelationID", "LICorrelationID", "RequestID", "Expand", "Select", "Format"}
	review := []string{"XCorrelationID", "LICorrelationID", "SpeciesInPath", "HoldingInPath", "ReviewFilter", "ReviewSelect", "ReviewExpand", "Top", "Skip", "SkipToken"}
	for _, m := range movementOps {
		var want []string
		switch {
		case strings.Contains(m.path, "{requestId}"):
			want = single
		case strings.Contains(m.path, "{species}"):
			want = review
		case m.method == "GET":
			want = collection
		default:
			want = []string{"XCorrelationID", "LICorrelationID"}
		}
		if diff := cmp.Diff(want, refs(m.path, m.method)); diff != "" {
			t.Errorf("%s parameters (-want +got):\n%s", m.id, diff)
		}
	}
}

// TestCorrectionRepeatsTransfer: a correction carries the transfer's
// fields with exactly the transfer's rules, beside requestToBeUndone_ID
// (its live name) and requestToBeCorrected_ID (Drover's earlier one).
func TestCorrectionRepeatsTransfer(t *testing.T) {
	t.Parallel()
	schemas := load(t).spec.Components.Schemas
	transfer, correction := schemas["Transfer"].Value, schemas["TransferCorrection"].Value
	for _, name := range []string{"requestToBeUndone_ID", "requestToBeCorrected_ID"} {
		if _, ok := correction.Properties[name]; !ok {
			t.Fatalf("TransferCorrection has no %s", name)
		}
	}
	if got, want := len(correction.Properties), len(transfer.Properties)+2; got != want {
		t.Errorf("TransferCorrection has %d properties, want %d", got, want)
	}
	for name, p := range transfer.Properties {
		want, _ := json.Marshal(p)
		got, _ := json.Marshal(correction.Properties[name])
		if string(got) != string(want) {
			t.Errorf("property %s differs:\ntransfer   %s\ncorrection %s", name, want, got)
		}
	}
	if diff := cmp.Diff(transfer.Required, correction.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	for _, name := range []string{"Transfer", "TransferCorrection", "MovementGroup", "Batch", "TransferBatch", "Device", "TransferDocument", "ProcessingFlag",
		"DeviceWithDetail", "DeviceTag", "HoldingMovementReview", "ReviewMovement", "ReviewBatchRef", "Undo",
		"TransferEnvelope", "TransferCorrectionEnvelope", "HoldingMovementReviewEnvelope", "UndoEnvelope", "ValidHoldingsEnvelope"} {
		if ap := schemas[name].Value.AdditionalProperties.Has; ap == nil || *ap {
			t.Errorf("%s does not refuse unknown properties", name)
		}
	}
}

// TestValidateMovements checks requests of the movements interface
// against drover.yaml itself.
func TestValidateMovements(t *testing.T) {
	t.Parallel()
	d := load(t)
	const good = `"transferDate":"2026-11-03","species":"Sheep","userHolding":"01/100/0257",` +
		`"sourceHolding":"01/100/0257","destinationHolding":"01/100/0264","animalCount":3,` +
		`"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]`
	post := func(path, body string) request {
		return request{method: "POST", target: path, ctype: "application/json", body: body}
	}
	transfer := func(content string) request { return post("/v1/TransferRequests", `{"content":{`+content+`}}`) }
	const review = "/v1/HoldingMovementForReviews(species={species},holding={holding})"
	const bySpecies = "/v1/HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})"
	lookup := func(template, species, holding string) request {
		return request{target: "/v1/HoldingMovementForReviews", template: template,
			params: map[string]string{"species": species, "holding": holding}}
	}
	tests := []struct {
		name string
		req  request
		want []fe
	}{
		{"transfer", transfer(good), nil},
		{"transfer with nulls", transfer(good + `,"trackingId":null,"saleDate":null,"movementDocument":null,"deviceApplication":null,"processingFlags":null,"id":0`), nil},
		{"transfer in the live shape", transfer(liveShape), nil},
		{"the whole record, as a generated client posts it", post("/v1/TransferRequests", `{"requestId":0,"requestStatus":"NotAvailable",`+
			`"requestDate":"0001-01-01T00:00:00+00:00","updatedDate":null,"userName":null,"errors":null,"warnings":[],"undoSupported":false,`+
			`"isContentPurged":false,"isFullUndone":false,"content":{`+good+`}}`), nil},
		{"a date-time without its offset", transfer(strings.Replace(good, `"2026-11-03"`, `"2026-11-03T09:00:00"`, 1)),
			[]fe{{"S008", "must match the pattern " + dateOrDateTime, "/content/transferDate", "2026-11-03T09:00:00"}}},
		{"a flag object with another member", transfer(good + `,"processingFlags":["185",{"name":"185","code":"x"}]`),
			[]fe{{"S003", "must be a string", "/content/processingFlags/1", `{"code":"x","name":"185"}`},
				{"S004", `property "code" is not allowed`, "/content/processingFlags/1/code", "x"}}},
		{"a movement document with another member", transfer(good + `,"movementDocument":{"departureDetail":{"colour":"red"}}`),
			[]fe{{"S004", `property "colour" is not allowed`, "/content/movementDocument/departureDetail/colour", "red"}}},
		{"transfer to an MHS", transfer(strings.Replace(good, `"01/100/0264"`, `"0035"`, 1)), nil},
		{"bare payload", post("/v1/TransferRequests", `{"species":"Sheep","animalCount":3}`),
			[]fe{
				{"S004", `property "animalCount" is not allowed`, "/animalCount", "3"},
				{"S002", "is required", "/content", ""},
				{"S004", `property "species" is not allowed`, "/species", "Sheep"},
			}},
		{"Goat", transfer(strings.Replace(good, "Sheep", "Goat", 1)),
			[]fe{{"S006", "must be one of: Sheep, Goats, Deer, Cattle", "/content/species", "Goat"}}},
		{"unknown property", transfer(good + `,"colour":"red"`),
			[]fe{{"S004", `property "colour" is not allowed`, "/content/colour", "red"}}},
		{"trackingId of 37", transfer(good + `,"trackingId":"` + strings.Repeat("t", 37) + `"`),
			[]fe{{"S007", "must be at most 36 characters long", "/content/trackingId", strings.Repeat("t", 37)}}},
		// Free-text fields have a length, and the vendor's holding is a CPH:
		// nothing is stored as sent at any size (the body's 1 MB is the
		// only other bound).
		{"deviceApplication a string but not a date", transfer(good + `,"deviceApplication":"` + strings.Repeat("a", 101) + `"`),
			[]fe{{"S008", "must match the pattern " + dateOrDateTime, "/content/deviceApplication", strings.Repeat("a", 100) + "…"}}},
		{"deviceApplication as a date, Drover's earlier form", transfer(good + `,"deviceApplication":"2026-11-02"`), nil},
		{"sub-location of 51", transfer(strings.Replace(good, `[{"devices"`, `[{"toSubLocation":"`+strings.Repeat("p", 51)+`","devices"`, 1)),
			[]fe{{"S007", "must be at most 50 characters long", "/content/movementGroups/0/toSubLocation", strings.Repeat("p", 51)}}},
		{"vendor not a holding", transfer(strings.Replace(good, `[{"devices"`, `[{"vendorHolding":"not a holding","devices"`, 1)),
			[]fe{{"S008", "must match the pattern ^[0-9]{2}/[0-9]{3}/[0-9]{4}$", "/content/movementGroups/0/vendorHolding", "not a holding"}}},
		{"vendor a holding, sub-locations given", transfer(strings.Replace(good, `[{"devices"`,
			`[{"vendorHolding":"01/100/0300","fromSubLocation":"Top field","toSubLocation":null,"devices"`, 1)), nil},
		{"CPH with %2f in a body", transfer(strings.Replace(good, `"userHolding":"01/100/0257"`, `"userHolding":"01%2f100%2f0257"`, 1)),
			[]fe{{"S008", "must match the pattern ^[0-9]{2}/[0-9]{3}/[0-9]{4}$", "/content/userHolding", "01%2f100%2f0257"}}},
		{"batches", transfer(strings.Replace(good, `"devices":[{"tagNumber":"UK0130181 00001"}]`,
			`"batches":[{"batchNumber":"UnKnown","animalTotal":2},{"batchNumber":"UK12345","animalTotal":0}]`, 1)),
			[]fe{
				{"S008", "must be at least 1", "/content/movementGroups/0/batches/1/animalTotal", "0"},
				{"S008", "must match the pattern ^(UK[0-9]{6}|[uU][nN][kK][nN][oO][wW][nN])$", "/content/movementGroups/0/batches/1/batchNumber", "UK12345"},
			}},
		{"no movement groups", transfer(strings.Replace(good, `[{"devices":[{"tagNumber":"UK0130181 00001"}]}]`, `[]`, 1)),
			[]fe{{"S007", "must have at least 1 items", "/content/movementGroups", "[]"}}},
		{"correction", post("/v1/CorrectTransferRequests", `{"content":{"requestToBeCorrected_ID":7,`+good+`}}`), nil},
		{"correction by its live name", post("/v1/CorrectTransferRequests", `{"content":{"requestToBeUndone_ID":7,`+good+`}}`), nil},
		// The schema takes either name; the service refuses a correction that names none (S002).
		{"correction without its target", post("/v1/CorrectTransferRequests", `{"content":{`+good+`}}`), nil},
		{"review", post("/v1/ReviewHoldingMovementRequests", `{"content":{"holding":"01/100/0264","reviewMovement":`+
			`{"requestId":7,"isAccepted":true,"arrivalDate":"2026-11-03","animalTotal":2,"rejectedDevices":[{"tagNumber":"UK0130181 00003"}]}}}`), nil},
		{"review without its request (isAccepted may be left to the lists, arrivalDate to the movement)", post("/v1/ReviewHoldingMovementRequests", `{"content":{"holding":"01/100/0264","reviewMovement":{"animalTotal":-1}}}`),
			[]fe{
				{"S008", "must be at least 0", "/content/reviewMovement/animalTotal", "-1"},
				{"S002", "is required", "/content/reviewMovement/requestId", ""},
			}},
		{"review in the live shape, as a generated client posts it", post("/v1/ReviewHoldingMovementRequests",
			`{"requestId":0,"requestStatus":"Pending","errors":[],"warnings":null,"undoSupported":true,"content":{"holding":"01/100/0264",`+
				`"id":0,"trackingId":"7c1d6f8e-2a4b-4c3d-9e8f-0a1b2c3d4e5f","processingFlags":[{"processingFlagId":null,"name":"SLAU"},"GATH"],`+
				`"reviewMovement":{"requestId":7,"isAccepted":null,"arrivalDate":"2026-11-03T16:30:00+01:00","animalTotal":null,`+
				`"acceptedDevices":[{"tagNumber":null,"rfid":"0826013018100001","freezebrand":null}],"rejectedDevices":null,`+
				`"acceptedBatches":[{"batchMovementId":5021,"batchNumber":null,"idMark":"red","stockType":"Ewe","animalTotal":3}],"rejectedBatches":[]}}}`), nil},
		{"review: a negative batchMovementId, an idMark too long", post("/v1/ReviewHoldingMovementRequests", `{"content":{"holding":"01/100/0264",`+
			`"reviewMovement":{"requestId":7,"arrivalDate":"2026-11-03","rejectedBatches":[{"batchMovementId":-1,"idMark":"`+strings.Repeat("x", 51)+`"}]}}}`),
			[]fe{
				{"S008", "must be at least 0", "/content/reviewMovement/rejectedBatches/0/batchMovementId", "-1"},
				{"S007", "must be at most 50 characters long", "/content/reviewMovement/rejectedBatches/0/idMark", strings.Repeat("x", 51)},
			}},
		// A generated client sends 0 for an id it does not know (the batch is then
		// named by its number) and a flag name of any length, as the live schema allows.
		{"review: batchMovementId 0 and a long flag name, as the live example", post("/v1/ReviewHoldingMovementRequests", `{"content":{"holding":"01/100/0264",`+
			`"processingFlags":[{"processingFlagId":0,"name":"`+strings.Repeat("n", 120)+`"}],`+
			`"reviewMovement":{"requestId":7,"arrivalDate":"2026-11-03T09:00:00Z","rejectedBatches":[{"batchMovementId":0,"batchNumber":"UK130181","animalTotal":1}]}}}`), nil},
		{"undo", post("/v1/UndoRequests", `{"content":{"requestToBeUndone_ID":7}}`), nil},
		{"undo in the live shape", post("/v1/UndoRequests", `{"requestId":0,"content":{"id":0,"undoRequestId":7,"trackingId":"u-7","processingFlags":[{"processingFlagId":8,"name":"InBus"}]}}`), nil},
		{"undo of 0", post("/v1/UndoRequests", `{"content":{"requestToBeUndone_ID":0}}`),
			[]fe{{"S008", "must be at least 1", "/content/requestToBeUndone_ID", "0"}}},
		{"valid holdings takes any short string", post("/v1/Holdings/ValidHoldings", `{"content":{"holdings":["x","01/100/0264","0035"]}}`), nil},
		{"valid holdings: any entry is answered", post("/v1/Holdings/ValidHoldings", `{"content":{"holdings":["`+strings.Repeat("9", 21)+`",7,null,{}]}}`), nil},
		{"valid holdings: null passes the schema, as the live one declares it", post("/v1/Holdings/ValidHoldings", `{"content":{"holdings":null}}`), nil},
		{"valid holdings: not a list", post("/v1/Holdings/ValidHoldings", `{"content":{"holdings":"01/100/0264"}}`),
			[]fe{{"S003", "must be an array or null", "/content/holdings", "01/100/0264"}}},
		{"collection", request{target: "/v1/TransferRequests?$top=10&$skip=5&$expand=content&$filter=movementDate%20ge%202026-11-01T00%3A00%3A00Z"}, nil},
		{"collection: bad options", request{target: "/v1/UndoRequests?$top=-1&$expand=devices"},
			[]fe{{"S008", "must be at least 0", "query:$top", "-1"}}},
		{"count", request{target: "/v1/UndoRequests/$count?$filter=isFullUndone%20eq%20true"}, nil},
		{"one request", request{target: "/v1/UndoRequests(7)", template: "/v1/UndoRequests({requestId})", params: map[string]string{"requestId": "7"}}, nil},
		{"one request: id 0", request{target: "/v1/UndoRequests(0)", template: "/v1/UndoRequests({requestId})", params: map[string]string{"requestId": "0"}},
			[]fe{{"S008", "must be at least 1", "path:requestId", "0"}}},
		{"lookup", lookup(review, "Sheep", "01/100/0264"), nil},
		{"lookup: Goat", lookup(review, "Goat", "01/100/0264"),
			[]fe{{"S006", "must be one of: Sheep, Goats, Deer, Cattle", "path:species", "Goat"}}},
		{"lookup by species, encoded", lookup(bySpecies, "Goats", "01%2F100%2f0264"), nil},
		{"lookup by species: not a CPH", lookup(bySpecies, "Deer", "01-100-0264"),
			[]fe{{"S008", "must match the pattern ^([0-9]{2}(/|%2[fF])[0-9]{3}(/|%2[fF])[0-9]{4}|[0-9]{9}|[0-9]{4}|null)$", "path:holding", "01-100-0264"}}},
		{"lookup by an abattoir's MHS", lookup(review, "Sheep", "0035"), nil},
		{"lookup: five digits", lookup(review, "Sheep", "00350"),
			[]fe{{"S008", "must match the pattern ^([0-9]{2}(/|%2[fF])[0-9]{3}(/|%2[fF])[0-9]{4}|[0-9]{9}|[0-9]{4}|null)$", "path:holding", "00350"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.req.validate(d)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

const dateOrDateTime = `^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2}))?$`

// liveShape is a transfer with every member of the live TransferModel,
// the definition's example adapted to the sandbox.
const liveShape = `"id":0,"trackingId":"live-1","sourceHolding":"01/100/0257","animalCount":4,` +
	`"movementDocument":{"departureDetail":{"departureHoldingType":"PRODUCER","departureDateTime":"2026-11-20T08:00:00Z",` +
	`"departureKeeper":{"county":"Cumbria","address2":null,"propertyName":"Low Farm","address1":"Fell Road","title":"Mr","telephoneNumber":"01234 567890",` +
	`"lastName":"Keeper","postCode":"CA1 1AA","town":"Penrith","firstName":"One"},"animalTotal":4,"loadingDateTime":"2026-11-20T07:30:00Z",` +
	`"departureOwner":null,"expectedDurationOfJourney":{"hours":2,"days":0,"minutes":30}},` +
	`"fciDetail":{"isAllAnimalsFciCompliant":false,"nonCompliantReason":"treated","holdingRestrictions":"none","withdrawalPeriodObservedText":"7 days",` +
	`"metFCIWithdrawalPeriodCode":"WITHDRAWAL_MET","nonCompliantDevices":[{"freezebrand":null,"rfid":"0826013018100001","tagNumber":"UK0130181 00001"}]},` +
	`"transportDetail":{"transporterAuthNumber":"UK/T1/123","transporterType":"Haulier","transportVehicleRegistrationNo":"AB12CDE",` +
	`"transporter":{"lastName":"Haulier"},"transportHaulierName":"A. Haulier Ltd"},` +
	`"destinationDetail":{"unloadingDateTime":"2026-11-20T11:00:00Z","arrivalDateTime":"2026-11-20T10:45:00+00:00","destinationKeeper":{"lastName":"Two"},` +
	`"destinationHoldingType":"PRODUCER","hasKeeperChanged":true,"totalAnimalsReceived":4},"documentType":"CLA","movementDocumentRef":"CLA-0001"},` +
	`"deviceApplication":{"dateOfApplication":"2026-11-19T09:00:00Z","endBirthPeriod":"2026-03-20T00:00:00Z","breed":"Texel","beginBirthPeriod":"2026-03-01T00:00:00Z"},` +
	`"transferDate":"2026-11-20T08:00:00Z","processingFlags":[{"processingFlagId":2,"name":"185"}],"saleDate":null,` +
	`"movementGroups":[{"devicesWithDetail":[{"beginBirthPeriod":"2026-03-01T00:00:00Z","breed":"Texel X","device":{"freezebrand":null,"rfid":null,"tagNumber":"UK0130181 00002"},` +
	`"gender":"Female","endBirthPeriod":"2026-03-05T00:00:00Z","mgtTag":{"identifier":"Ewe 2"}}],` +
	`"devices":[{"freezebrand":null,"rfid":"0826013018100001","tagNumber":"UK013018100001"}],` +
	`"batches":[{"idMark":"red spot","stockType":"Ewes","batchNumber":"UK130181","animalTotal":2},{"idMark":null,"stockType":null,"batchNumber":null,"animalTotal":1}],` +
	`"fromSubLocation":null,"vendorHolding":null,"toSubLocation":"isolation"}],` +
	`"species":"Sheep","destinationHolding":"01/100/0264","saleId":null,"transportHaulierName":"A. Haulier Ltd","userHolding":"01/100/0257",` +
	`"transportVehicleRegistrationNo":"AB12CDE"`
