package api_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/api/openapi/live"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// liveServed are the live operations Drover serves (issue 19): the whole
// movements definition, and of the registration definition the animal
// registration, its status and look-up, and the reference lists. The
// definitions' other operations (/movements, /lostfounds, listing, changing
// and deleting animals) are not part of the interface documents.
var liveServed = []string{
	"CLA GET /TransferRequests", "CLA POST /TransferRequests", "CLA GET /TransferRequests({id})", "CLA GET /TransferRequests/$count",
	"CLA GET /CorrectTransferRequests", "CLA POST /CorrectTransferRequests", "CLA GET /CorrectTransferRequests({id})", "CLA GET /CorrectTransferRequests/$count",
	"CLA GET /ReviewHoldingMovementRequests", "CLA POST /ReviewHoldingMovementRequests", "CLA GET /ReviewHoldingMovementRequests({id})", "CLA GET /ReviewHoldingMovementRequests/$count",
	"CLA GET /UndoRequests", "CLA POST /UndoRequests", "CLA GET /UndoRequests({id})", "CLA GET /UndoRequests/$count",
	"CLA POST /Holdings/ValidHoldings",
	"CLA GET /HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})",
	"CLA GET /ApprovedMovements", "CLA GET /ApprovedMovements({id},{recordedBy})",
	"CLA GET /ApprovedMovements/ByTransferDateRange(speciesId={speciesId},startTransferDate={startTransferDate},endTransferDate={endTransferDate},departureHolding={departureHolding},destinationHolding={destinationHolding})",
	"LIS POST /animals", "LIS GET /animals/{identifier}", "LIS GET /requeststatus/{requestId}",
	"LIS GET /breeds", "LIS GET /deathreasons", "LIS GET /genotypes", "LIS GET /rejectionreasons", "LIS GET /hauliers",
}

// TestLiveExamples: a client generated from the live definitions calls
// every operation Drover serves, sending the definition's own request
// example where it has one (adapted to the sandbox: liveExampleFill), and
// each call is answered 2xx. Every answer is also held to the live
// definition by bundle.do. A refusal is treated as the live mode says
// (livecontract_test.go).
func TestLiveExamples(t *testing.T) {
	c := live.ForTest(t)
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1, k2 := b.token("keeper1"), b.token("keeper2")
	called := map[string]bool{}
	call := func(token, method, path string, body any, headers ...string) response {
		t.Helper()
		op := c.Find(method, path)
		if op == nil {
			t.Fatalf("%s %s calls no live operation", method, path)
		}
		called[op.String()] = true
		var res response
		if body == nil {
			res = b.do(method, path, token, nil, headers...)
		} else {
			data, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			res = b.do(method, path, token, strings.NewReader(string(data)), append([]string{"Content-Type", "application/json"}, headers...)...)
		}
		if res.status/100 != 2 {
			liveRefused(t, op.String(), res)
		}
		return res
	}
	example := func(op string) any {
		t.Helper()
		for _, o := range c.Operations() {
			if o.String() == op {
				if ex := o.Example(); ex != nil {
					return ex
				}
			}
		}
		t.Fatalf("the live definition has no request example for %s", op)
		return nil
	}
	id := func(res response) int64 {
		var rec struct {
			RequestID int64 `json:"requestId"`
		}
		_ = json.Unmarshal(res.body, &rec)
		return rec.RequestID
	}

	// Movements: two transfers from the example, one corrected and undone,
	// the other reviewed by the receiving keeper.
	t1 := id(call(k1, "POST", "/v1/TransferRequests", adaptExample(t, example("CLA POST /TransferRequests"), transferFill("live-t1", 10))))
	t2 := id(call(k1, "POST", "/v1/TransferRequests", adaptExample(t, example("CLA POST /TransferRequests"), transferFill("live-t2", 20))))
	for _, rid := range []int64{t1, t2} {
		if rid != 0 {
			b.await(k1, "TransferRequests", rid)
		}
	}
	correction := transferFill("live-c1", 10)
	correction["/content/requestToBeUndone_ID"] = t1
	c1 := id(call(k1, "POST", "/v1/CorrectTransferRequests", adaptExample(t, example("CLA POST /CorrectTransferRequests"), correction)))

	review := "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='" + url.PathEscape(farm2) + "')"
	batchMovementID := reviewBatchID(call(k2, "GET", review, nil), t2)
	r1 := id(call(k2, "POST", "/v1/ReviewHoldingMovementRequests", adaptExample(t, example("CLA POST /ReviewHoldingMovementRequests"), reviewFill(t2, batchMovementID))))
	u1 := id(call(k1, "POST", "/v1/UndoRequests", adaptExample(t, example("CLA POST /UndoRequests"), map[string]any{
		"/content/undoRequestId": t1, "/content/trackingId": "live-u1", "/content/processingFlags/0": liveFlag,
	})))
	call(k1, "POST", "/v1/Holdings/ValidHoldings", adaptExample(t, example("CLA POST /Holdings/ValidHoldings"), map[string]any{
		"/content/holdings/0": farm1, "/content/holdings/1": farm2, // the third stays the example's malformed one
	}))
	for name, rid := range map[string]int64{"TransferRequests": t1, "CorrectTransferRequests": c1, "ReviewHoldingMovementRequests": r1, "UndoRequests": u1} {
		tok := k1
		if name == "ReviewHoldingMovementRequests" {
			tok = k2
		}
		page := call(tok, "GET", "/v1/"+name+"?$top=5", nil)
		call(tok, "GET", "/v1/"+name+"/$count", nil)
		if rid == 0 { // the POST was refused (reported above): read a request the listing shows
			rid = firstRequestID(page)
		}
		if rid == 0 {
			t.Errorf("%s: the test made no request to read back", name)
			continue
		}
		call(tok, "GET", fmt.Sprintf("/v1/%s(%d)?$expand=content", name, rid), nil)
	}
	if approvedID, recordedBy, ok := firstApproved(call(k1, "GET", "/v1/ApprovedMovements", nil)); ok {
		call(k1, "GET", fmt.Sprintf("/v1/ApprovedMovements(%d,'%s')", approvedID, recordedBy), nil)
	} else {
		t.Error("ApprovedMovements lists none of the test's movements, so none can be read by its key")
	}
	call(k1, "GET", fmt.Sprintf("/v1/ApprovedMovements/ByTransferDateRange(speciesId=%d,startTransferDate=%sT00:00:00Z,endTransferDate=%sT23:59:59Z,departureHolding='%s',destinationHolding='')",
		liveSheepID, day(-7), day(0), url.PathEscape(farm1)), nil)

	// Registration: the LIS definition gives no request example for
	// POST /animals; calf is a body in its Animal shape.
	tag := func(n int) string { return "UK442501" + checkDigit(t, "442501", n) + fmt.Sprintf("%05d", n) }
	call(k1, "POST", "/v1/animals", calf(tag(105), tag(1), day(-2)))
	queued := call(k1, "POST", "/v1/animals", calf(tag(106), tag(2), day(-2)), "LI-Request-Mode", "async")
	var accepted struct {
		RequestStatusURL string `json:"requestStatusUrl"`
	}
	_ = json.Unmarshal(queued.body, &accepted)
	if wait, err := strconv.Atoi(queued.header.Get("Retry-After")); err == nil {
		time.Sleep(time.Duration(min(wait, 3)) * time.Second) // a polite client waits as told
	}
	_, rid, ok := strings.Cut(accepted.RequestStatusURL, "/requeststatus/")
	if !ok {
		rid = "00000000-0000-4000-8000-000000000000" // the POST was refused
	}
	call(k1, "GET", "/v1/requeststatus/"+rid, nil)
	call(k1, "GET", "/v1/animals/"+tag(105), nil)
	for _, list := range []string{"breeds", "deathreasons", "genotypes", "rejectionreasons"} {
		call(k1, "GET", "/v1/"+list+"?species=cattle", nil)
	}
	call(k1, "GET", "/v1/hauliers", nil)

	for _, op := range liveServed {
		if !called[op] {
			t.Errorf("%s: Drover serves it, and the test does not call it", op)
		}
	}
	for _, o := range c.Operations() {
		if !slices.Contains(liveServed, o.String()) {
			t.Logf("not served by Drover: %s", o)
		}
	}
}

// liveFlag is a processing flag in the live shape: its name is a live
// sheep exemption code (cla-v1.0-summary.json, "Exemption Codes": 173,
// back home after being gathered from common land) and its id is the one
// standing data gives that code.
var liveFlag = map[string]any{"processingFlagId": 1, "name": "173"}

// liveSheepID is the speciesId of sheep that ByTransferDateRange takes.
const liveSheepID = 1

// transferFill adapts the live transfer example to the sandbox: keeper1
// moves sheep of flock 130181 (tags from first on) from farm1 to farm2.
// Every member the example has is kept and given a value the sandbox
// holds; those the live description reserves to another case are
// removed (nil): the sale members and a group's vendor and sub-location
// belong to a market's off-movement, the FCI non-compliance members to
// animals that are not compliant, and a device names itself by its tag.
func transferFill(tracking string, first int) map[string]any {
	yesterday := day(-1)
	at := func(hhmm string) string { return yesterday + "T" + hhmm + ":00+00:00" }
	tag := func(n int) string { return fmt.Sprintf("UK0130181 %05d", n) }
	person := func(p string) map[string]any {
		return map[string]any{p + "/title": "Mr", p + "/county": "Devon", p + "/postCode": "EX1 1AA", p + "/telephoneNumber": "01392 000000"}
	}
	const doc = "/content/movementDocument"
	f := map[string]any{
		"/requestDate": "0001-01-01T00:00:00+00:00", "/updatedDate": "0001-01-01T00:00:00+00:00",
		"/content/trackingId": tracking, "/content/species": "Sheep", "/content/transferDate": at("08:00"),
		"/content/sourceHolding": farm1, "/content/destinationHolding": farm2, "/content/userHolding": farm1,
		"/content/animalCount": 4, "/content/processingFlags/0": liveFlag,
		"/content/saleDate": nil, "/content/saleId": nil,
		"/content/transportHaulierName": "Example Haulage", "/content/transportVehicleRegistrationNo": "AB12 CDE",
		"/content/deviceApplication/dateOfApplication": at("07:00"), "/content/deviceApplication/breed": "Beltex",
		"/content/deviceApplication/beginBirthPeriod": day(-60) + "T00:00:00+00:00", "/content/deviceApplication/endBirthPeriod": day(-30) + "T00:00:00+00:00",
		"/content/movementGroups/0/devices/0":                             map[string]any{"tagNumber": tag(first)},
		"/content/movementGroups/0/devicesWithDetail/0/device":            map[string]any{"tagNumber": tag(first + 1)},
		"/content/movementGroups/0/devicesWithDetail/0/gender":            "Female",
		"/content/movementGroups/0/devicesWithDetail/0/breed":             "Beltex",
		"/content/movementGroups/0/devicesWithDetail/0/beginBirthPeriod":  day(-60) + "T00:00:00+00:00",
		"/content/movementGroups/0/devicesWithDetail/0/endBirthPeriod":    day(-30) + "T00:00:00+00:00",
		"/content/movementGroups/0/devicesWithDetail/0/mgtTag/identifier": fmt.Sprintf("M%d", first),
		"/content/movementGroups/0/batches/0":                             map[string]any{"idMark": "130181", "stockType": "Ewes", "batchNumber": "UK130181", "animalTotal": 2},
		"/content/movementGroups/0/fromSubLocation":                       nil, "/content/movementGroups/0/vendorHolding": nil,
		"/content/movementGroups/0/toSubLocation": "Pen 1",
		doc + "/documentType":                     "CLA", doc + "/movementDocumentRef": "DOC-" + tracking,
		doc + "/departureDetail/departureHoldingType": "PRODUCER", doc + "/departureDetail/departureDateTime": at("07:30"),
		doc + "/departureDetail/loadingDateTime": at("07:15"), doc + "/departureDetail/animalTotal": 4,
		doc + "/departureDetail/expectedDurationOfJourney": map[string]any{"days": 0, "hours": 1, "minutes": 30},
		doc + "/fciDetail/isAllAnimalsFciCompliant":        true, doc + "/fciDetail/metFCIWithdrawalPeriodCode": "WITHDRAWAL_MET",
		doc + "/fciDetail/nonCompliantReason": nil, doc + "/fciDetail/nonCompliantDevices": nil,
		doc + "/transportDetail/transporterType": "Haulier", doc + "/transportDetail/transporterAuthNumber": "UK/T1/000001",
		doc + "/transportDetail/transportVehicleRegistrationNo": "AB12 CDE", doc + "/transportDetail/transportHaulierName": "Example Haulage",
		doc + "/destinationDetail/destinationHoldingType": "PRODUCER", doc + "/destinationDetail/arrivalDateTime": at("09:00"),
		doc + "/destinationDetail/unloadingDateTime": at("09:15"), doc + "/destinationDetail/totalAnimalsReceived": 4,
	}
	for _, p := range []string{doc + "/departureDetail/departureKeeper", doc + "/departureDetail/departureOwner",
		doc + "/transportDetail/transporter", doc + "/destinationDetail/destinationKeeper"} {
		for k, v := range person(p) {
			f[k] = v
		}
	}
	return f
}

// reviewFill adapts the live review example: keeper2 accepts one tag and
// one sheep of the batch of transfer id, and rejects the others.
func reviewFill(id, batchMovementID int64) map[string]any {
	batch := func(total int) map[string]any {
		return map[string]any{"batchMovementId": batchMovementID, "idMark": "130181", "stockType": "Ewes", "batchNumber": "UK130181", "animalTotal": total}
	}
	const rm = "/content/reviewMovement"
	return map[string]any{
		"/requestDate": "0001-01-01T00:00:00+00:00", "/updatedDate": "0001-01-01T00:00:00+00:00",
		"/content/holding": farm2, "/content/trackingId": "live-r1", "/content/processingFlags/0": liveFlag,
		rm + "/requestId": id, rm + "/arrivalDate": day(-1) + "T09:00:00+00:00", rm + "/isAccepted": true, rm + "/animalTotal": 2,
		rm + "/acceptedDevices/0": map[string]any{"tagNumber": "UK0130181 00020"},
		rm + "/rejectedDevices/0": map[string]any{"tagNumber": "UK0130181 00021"},
		rm + "/acceptedBatches/0": batch(1), rm + "/rejectedBatches/0": batch(1),
	}
}

// adaptExample is a copy of a live example with each member named by a
// JSON pointer in fill set to its value, or removed when the value is nil.
// A pointer the example does not have fails the test: the fill must
// describe the example it adapts.
func adaptExample(t *testing.T, example any, fill map[string]any) any {
	t.Helper()
	data, err := json.Marshal(example)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, ptr := range slices.Sorted(func(yield func(string) bool) {
		for k := range fill {
			if !yield(k) {
				return
			}
		}
	}) {
		parts := strings.Split(ptr, "/")[1:]
		parent := doc
		for _, p := range parts[:len(parts)-1] {
			if parent = child(parent, p); parent == nil {
				t.Fatalf("the example has no %s", ptr)
			}
		}
		last := parts[len(parts)-1]
		switch p := parent.(type) {
		case map[string]any:
			if _, ok := p[last]; !ok {
				t.Fatalf("the example has no %s", ptr)
			}
			if fill[ptr] == nil {
				delete(p, last)
			} else {
				p[last] = fill[ptr]
			}
		case []any:
			i, err := strconv.Atoi(last)
			if err != nil || i >= len(p) || fill[ptr] == nil {
				t.Fatalf("the example has no %s (or it cannot be removed)", ptr)
			}
			p[i] = fill[ptr]
		default:
			t.Fatalf("the example has no %s", ptr)
		}
	}
	return doc
}

func child(v any, key string) any {
	switch v := v.(type) {
	case map[string]any:
		return v[key]
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i < len(v) {
			return v[i]
		}
	}
	return nil
}

// reviewBatchID is the batchMovementId the review look-up gives the first
// batch of transfer id, or 0 when it gives none.
func reviewBatchID(res response, id int64) int64 {
	var page struct {
		Value []struct {
			RequestID     int64 `json:"requestId"`
			ReviewBatches []struct {
				BatchMovementID int64 `json:"batchMovementId"`
			} `json:"reviewBatches"`
		} `json:"value"`
	}
	_ = json.Unmarshal(res.body, &page)
	for _, m := range page.Value {
		if m.RequestID == id && len(m.ReviewBatches) > 0 {
			return m.ReviewBatches[0].BatchMovementID
		}
	}
	return 0
}

// firstRequestID is the requestId of the first record of a page, or 0.
func firstRequestID(res response) int64 {
	var page struct {
		Value []struct {
			RequestID int64 `json:"requestId"`
		} `json:"value"`
	}
	_ = json.Unmarshal(res.body, &page)
	if len(page.Value) == 0 {
		return 0
	}
	return page.Value[0].RequestID
}

// firstApproved is the id and recordedBy of the first approved movement;
// ok is false when there is none.
func firstApproved(res response) (id int64, recordedBy string, ok bool) {
	var page struct {
		Value []struct {
			ID         int64  `json:"id"`
			RecordedBy string `json:"recordedBy"`
		} `json:"value"`
	}
	_ = json.Unmarshal(res.body, &page)
	if len(page.Value) > 0 && page.Value[0].RecordedBy != "" {
		return page.Value[0].ID, page.Value[0].RecordedBy, true
	}
	return 0, "", false
}

// liveRefused treats a live-shaped request Drover did not answer 2xx as
// the live mode says: a failure, or a line of the report.
func liveRefused(t *testing.T, op string, res response) {
	t.Helper()
	// One line per refused field, so that the report lists each.
	var p struct {
		Errors []struct{ Code, Message, Source string }
	}
	var details []string
	if json.Unmarshal(res.body, &p) == nil {
		for _, e := range p.Errors {
			details = append(details, fmt.Sprintf("refused: %s %s: %.120s", e.Code, e.Source, e.Message))
		}
	}
	if len(details) == 0 {
		details = []string{fmt.Sprintf("refused: %.300s", res.body)}
	}
	err := &live.Violation{Operation: op, Status: res.status, Kind: "not 2xx", Details: details}
	if liveFails() {
		t.Error(err)
		return
	}
	liveReport.add(t.Name(), err)
}
