package api_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// whole wraps content as a client generated from the live definition
// posts it: the whole request record, its read-only members beside content.
func whole(content map[string]any) map[string]any {
	return map[string]any{"requestId": 0, "requestStatus": "NotAvailable", "requestDate": "0001-01-01T00:00:00+00:00",
		"updatedDate": nil, "userName": nil, "errors": nil, "warnings": []any{}, "undoSupported": false,
		"isContentPurged": false, "isFullUndone": false, "content": content}
}

// liveRefusal is the status of res, and the live code and target of its
// error when it is a movements 400.
func liveRefusal(res response) (status int, code, target string) {
	var body struct {
		Error struct{ Code, Target string }
	}
	_ = json.Unmarshal(res.body, &body)
	return res.status, body.Error.Code, body.Error.Target
}

// submitWhole posts a whole record and waits for its job.
func (b *bundle) submitWhole(token, collection string, content map[string]any) record {
	b.t.Helper()
	res := b.post(token, collection, whole(content))
	if res.status != http.StatusCreated {
		b.t.Fatalf("POST %s = %d %s", collection, res.status, res.body)
	}
	var rec record
	res.decode(&rec)
	done := b.await(token, collection, rec.RequestID)
	// The 201 carries the stored content, as the live example shows it.
	if !jsonEqual(rec.Content, done.Content) {
		b.t.Errorf("POST %s answered content %s; the request holds %s", collection, rec.Content, done.Content)
	}
	return done
}

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// liveTransfer is the live definition's TransferModel example with every
// member, adapted to the sandbox: keeper1 sends two tagged sheep, one with
// details, and a batch of two to keeper2, the transfer dated at a time of
// the day before.
func liveTransfer() map[string]any {
	var m map[string]any
	doc := `{"trackingId":"live-1","id":0,"sourceHolding":"01/100/0257","destinationHolding":"01/100/0264","userHolding":"01/100/0257","species":"Sheep","animalCount":4,
"transferDate":"` + day(-1) + `T08:00:00+00:00","saleDate":null,"saleId":null,"transportHaulierName":"A. Haulier Ltd","transportVehicleRegistrationNo":"AB12CDE",
"processingFlags":[{"processingFlagId":8,"name":"InBus"}],
"deviceApplication":{"dateOfApplication":"2026-01-19T09:00:00Z","beginBirthPeriod":null,"endBirthPeriod":null,"breed":"Texel"},
"movementDocument":{"documentType":"CLA","movementDocumentRef":"CLA-0001",
 "departureDetail":{"departureHoldingType":"PRODUCER","departureDateTime":"` + day(-1) + `T08:00:00Z","loadingDateTime":"` + day(-1) + `T07:30:00Z","animalTotal":4,
  "departureKeeper":{"title":"Mr","firstName":"One","lastName":"Keeper","postCode":"CA1 1AA"},"departureOwner":null,"expectedDurationOfJourney":{"days":0,"hours":2,"minutes":0}},
 "destinationDetail":{"destinationHoldingType":"PRODUCER","arrivalDateTime":"` + day(-1) + `T10:00:00Z","unloadingDateTime":null,"totalAnimalsReceived":4,"hasKeeperChanged":true,"destinationKeeper":{"lastName":"Two"}},
 "transportDetail":{"transporterType":"Haulier","transporterAuthNumber":"UK/T1/1","transportHaulierName":"A. Haulier Ltd","transportVehicleRegistrationNo":"AB12CDE","transporter":null},
 "fciDetail":{"isAllAnimalsFciCompliant":true,"nonCompliantReason":null,"holdingRestrictions":null,"withdrawalPeriodObservedText":null,"metFCIWithdrawalPeriodCode":"WITHDRAWAL_NOT_RELEVANT","nonCompliantDevices":[]}},
"movementGroups":[{"fromSubLocation":null,"toSubLocation":"isolation","vendorHolding":null,
 "devices":[{"tagNumber":null,"rfid":"0826013018100011","freezebrand":null}],
 "devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00012","rfid":null,"freezebrand":null},"breed":"Texel X","gender":"Female",
  "beginBirthPeriod":"2024-01-01T00:00:00Z","endBirthPeriod":"2024-01-01T00:00:00Z","mgtTag":{"identifier":"Ewe 12"}}],
 "batches":[{"batchNumber":"UK130181","animalTotal":2,"idMark":"red spot","stockType":"Ewes"}]}]}`
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		panic(err)
	}
	return m
}

// TestLiveShapedMovements: a client generated from the live definition
// sends a transfer, a correction and an undo in the live shapes, each as
// the whole record; the rules apply, and the content reads back in the
// live shape with its meaning.
func TestLiveShapedMovements(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		sent := b.submitWhole(k1, "TransferRequests", liveTransfer())
		if errs, warns := sent.codes(); sent.RequestStatus != "Success" || errs != nil || warns != nil {
			t.Fatalf("live transfer: %s %+v %+v", sent.RequestStatus, sent.Errors, sent.Warnings)
		}
		var content map[string]any
		if err := json.Unmarshal(sent.Content, &content); err != nil {
			t.Fatal(err)
		}
		flags, _ := json.Marshal(content["processingFlags"])
		group, _ := json.Marshal(content["movementGroups"])
		docRef, _ := json.Marshal(content["movementDocument"])
		for what, ok := range map[string]bool{
			"transferDate as given":      content["transferDate"] == day(-1)+"T08:00:00Z",
			"flags as objects":           string(flags) == `[{"name":"InBus","processingFlagId":8}]`,
			"the device by its rfid":     strings.Contains(string(group), `{"rfid":"0826013018100011","tagNumber":"UK0130181 00011"}`),
			"the detailed device nested": strings.Contains(string(group), `"device":{"rfid":"0826013018100012","tagNumber":"UK0130181 00012"}`),
			"the batch's mark and stock": strings.Contains(string(group), `"idMark":"red spot"`) && strings.Contains(string(group), `"stockType":"Ewes"`),
			"the movement document":      strings.Contains(string(docRef), `"documentType":"CLA"`) && strings.Contains(string(docRef), `"transporterType":"Haulier"`),
			"no request id of its own":   content["id"] == nil,
		} {
			if !ok {
				t.Errorf("stored content: %s: %s", what, sent.Content)
			}
		}

		// The correction names its target by the live requestToBeUndone_ID:
		// the tagged sheep alone, the documented totals following.
		fix := liveTransfer()
		fix["requestToBeUndone_ID"] = sent.RequestID
		fix["trackingId"] = "live-2"
		fix["animalCount"] = 2
		groups := fix["movementGroups"].([]any)
		delete(groups[0].(map[string]any), "batches")
		doc := fix["movementDocument"].(map[string]any)
		doc["departureDetail"].(map[string]any)["animalTotal"] = 2
		doc["destinationDetail"].(map[string]any)["totalAnimalsReceived"] = 3
		wrong := b.post(k1, "CorrectTransferRequests", whole(fix))
		if status, code, target := liveRefusal(wrong); status != http.StatusBadRequest || code != "21148" ||
			target != "content.movementDocument.destinationDetail.totalAnimalsReceived" {
			t.Errorf("a document total that disagrees: %d %s", wrong.status, wrong.body)
		}
		doc["destinationDetail"].(map[string]any)["totalAnimalsReceived"] = 2
		// A trackingId is unique per request type (the live code 25): the
		// correction may carry its transfer's.
		fix["trackingId"] = "live-1"
		corrected := b.submitWhole(k1, "CorrectTransferRequests", fix)
		if corrected.RequestStatus != "Success" || !strings.Contains(string(corrected.Content), `"requestToBeUndone_ID":`) {
			t.Fatalf("live correction: %s %+v %s", corrected.RequestStatus, corrected.Errors, corrected.Content)
		}

		// The undo names its target by the live undoRequestId, with a
		// trackingId and flags.
		undo := b.submitWhole(k1, "UndoRequests", map[string]any{"id": 0, "undoRequestId": corrected.RequestID,
			"trackingId": "live-undo-1", "processingFlags": []any{map[string]any{"processingFlagId": nil, "name": "InBus"}}})
		if undo.RequestStatus != "Success" || undo.TrackingID != "live-undo-1" ||
			string(undo.Content) != `{"undoRequestId":`+itoa(corrected.RequestID)+`,"trackingId":"live-undo-1","processingFlags":[{"processingFlagId":8,"name":"InBus"}]}` {
			t.Errorf("live undo: %s %+v %s", undo.RequestStatus, undo.Errors, undo.Content)
		}
		// Named both ways, an undo's two names must agree.
		res := b.post(k1, "UndoRequests", whole(map[string]any{"undoRequestId": sent.RequestID, "requestToBeUndone_ID": corrected.RequestID}))
		if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), "/content/requestToBeUndone_ID") {
			t.Errorf("two names of the target disagreeing: %d %s", res.status, res.body)
		}
	})
}

// TestDeerByFreezebrandAndTotal: deer, which wear no tag Drover reads, move
// by freezebrand and by batch total alone; animalCount counts both.
func TestDeerByFreezebrandAndTotal(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	deer := map[string]any{"transferDate": day(-1) + "T09:00:00Z", "species": "Deer", "userHolding": farm1, "sourceHolding": farm1,
		"destinationHolding": farm2, "animalCount": 6, "movementGroups": []any{map[string]any{
			"devices": []any{map[string]any{"freezebrand": "H17"}}, "batches": []any{map[string]any{"animalTotal": 5, "stockType": "Hinds"}}}}}
	sent := b.submitWhole(k1, "TransferRequests", deer)
	if sent.RequestStatus != "Success" {
		t.Errorf("deer: %s %+v", sent.RequestStatus, sent.Errors)
	}
	// keeper2's look-up shows the branded hind beside the batch: six to review.
	k2 := b.token("keeper2")
	res := b.do(http.MethodGet, "/v1/HoldingMovementForReviews/ReviewBySpecies(species=Deer,holding="+farm2Path+")", k2, nil)
	var page struct {
		Value []struct {
			AnimalTotal   int `json:"animalTotal"`
			ReviewDevices []struct {
				TagNumber   *string `json:"tagNumber"`
				Freezebrand *string `json:"freezebrand"`
			} `json:"reviewDevices"`
		}
	}
	res.decode(&page)
	if len(page.Value) != 1 || page.Value[0].AnimalTotal != 6 || len(page.Value[0].ReviewDevices) != 1 ||
		page.Value[0].ReviewDevices[0].TagNumber != nil || page.Value[0].ReviewDevices[0].Freezebrand == nil || *page.Value[0].ReviewDevices[0].Freezebrand != "H17" {
		t.Errorf("deer awaiting review: %d %s", res.status, res.body)
	}
	// Accepted, the branded hind arrives with the batch: six accepted, six
	// on the destination's record.
	if rec := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
		"reviewMovement": map[string]any{"requestId": sent.RequestID, "isAccepted": true, "arrivalDate": day(0), "animalTotal": 6}}); !rec.applied() {
		t.Errorf("keeper2 accepting six deer: %s %+v", rec.RequestStatus, rec.Errors)
	}
	var arrived struct {
		AnimalTotal int `json:"animalTotal"`
	}
	b.do(http.MethodGet, fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", sent.RequestID), k2, nil).decode(&arrived)
	if arrived.AnimalTotal != 6 {
		t.Errorf("the destination's record of six deer: animalTotal %d", arrived.AnimalTotal)
	}
	deer["animalCount"] = 5
	res = b.post(k1, "TransferRequests", whole(deer))
	if status, code, _ := liveRefusal(res); status != http.StatusBadRequest || code != livestock.LiveCode(livestock.EndpointTransfer, livestock.CodeAnimalCount) {
		t.Errorf("deer miscounted: %d %s", res.status, res.body)
	}
	sheep := map[string]any{"transferDate": day(-1), "species": "Sheep", "userHolding": farm1, "sourceHolding": farm1,
		"destinationHolding": farm2, "animalCount": 1, "movementGroups": []any{map[string]any{"batches": []any{map[string]any{"animalTotal": 1}}}}}
	if res := b.post(k1, "TransferRequests", whole(sheep)); res.status != http.StatusBadRequest ||
		!strings.Contains(string(res.body), "/content/movementGroups/0/batches/0/batchNumber") {
		t.Errorf("a sheep batch without its number: %d %s", res.status, res.body)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestLiveFieldCodes: a rule the live catalogue gives one field a code of
// its own for is refused with that code, not the generic one (30059,
// 30060, 30062, 31000), at the field's target.
func TestLiveFieldCodes(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	doc := map[string]any{"documentType": "CLA", "movementDocumentRef": "R1"}
	y := day(-1)
	with := func(d map[string]any, k string, v any) map[string]any {
		out := maps.Clone(d)
		out[k] = v
		return out
	}
	detail := func(k string, v any) []map[string]any {
		return []map[string]any{{"device": map[string]any{"tagNumber": "UK0130181 00020"}, "beginBirthPeriod": "2024-01-01T00:00:00Z",
			"endBirthPeriod": "2024-01-20T00:00:00Z", k: v}}
	}
	for _, tc := range []struct {
		name       string
		collection string
		change     func(c map[string]any)
		code       string
		target     string
	}{
		{"animalCount 0", "TransferRequests", func(c map[string]any) {
			c["animalCount"], c["movementGroups"] = 0, []map[string]any{{"devices": []any{}}}
		}, "4009", "content.animalCount"},
		{"no animals", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devices": []any{}, "batches": []any{}}}
		}, "4064", "content.movementGroups"},
		{"departure total", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "departureDetail", map[string]any{"animalTotal": 7})
		}, "21109", "content.movementDocument.departureDetail.animalTotal"},
		{"total received", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "destinationDetail", map[string]any{"totalAnimalsReceived": 7})
		}, "21148", "content.movementDocument.destinationDetail.totalAnimalsReceived"},
		{"documentType unknown", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "documentType", "NOPE")
		}, "4058", "content.movementDocument.documentType"},
		{"documentType without its ref", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = map[string]any{"documentType": "CLA"}
		}, "4059", "content.movementDocument.movementDocumentRef"},
		{"transporterType", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "transportDetail", map[string]any{"transporterType": "Spaceship"})
		}, "21130", "content.movementDocument.transportDetail.transporterType"},
		{"FCI withdrawal", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "fciDetail", map[string]any{"metFCIWithdrawalPeriodCode": "ZZZ"})
		}, "21161", "content.movementDocument.fciDetail.metFCIWithdrawalPeriodCode"},
		{"batch number", "TransferRequests", func(c map[string]any) {
			c["animalCount"] = 2
			c["movementGroups"] = []map[string]any{{"devices": sheep("130181", 20), "batches": []map[string]any{{"batchNumber": "XX1", "animalTotal": 1}}}}
		}, "30010", "content.movementGroups[0].batches[0].batchNumber"},
		{"tag number", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devices": []map[string]any{{"tagNumber": "UK01301810002"}}}}
		}, "30019", "content.movementGroups[0].devices[0].tagNumber"},
		{"no tag or rfid", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devices": []map[string]any{{"tagNumber": nil, "rfid": nil}}}}
		}, "30017", "content.movementGroups[0].devices[0].tagNumber"},
		{"rfid", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devices": []map[string]any{{"tagNumber": "UK0130181 00020", "rfid": "12345"}}}}
		}, "3027", "content.movementGroups[0].devices[0].rfid"},
		{"half a birth period", "TransferRequests", func(c map[string]any) {
			d := detail("gender", "Female")
			delete(d[0], "endBirthPeriod")
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": d}}
		}, "8023", "content.movementGroups[0].devicesWithDetail[0].endBirthPeriod"},
		{"birth period backwards", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": detail("endBirthPeriod", "2023-12-01T00:00:00Z")}}
		}, "8004", "content.movementGroups[0].devicesWithDetail[0].endBirthPeriod"},
		{"birth period too long", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": detail("endBirthPeriod", "2024-03-01T00:00:00Z")}}
		}, "8022", "content.movementGroups[0].devicesWithDetail[0].endBirthPeriod"},
		{"gender", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": detail("gender", "Bull")}}
		}, "21458", "content.movementGroups[0].devicesWithDetail[0].gender"},
		{"breed", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": detail("breed", "Holstein")}}
		}, "21465", "content.movementGroups[0].devicesWithDetail[0].breed"},
		{"management tag", "TransferRequests", func(c map[string]any) {
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": detail("mgtTag", map[string]any{"identifier": "AB#"})}}
		}, "21904", "content.movementGroups[0].devicesWithDetail[0].mgtTag.identifier"},
		{"holding badly formed", "TransferRequests", func(c map[string]any) { c["destinationHolding"] = "01-100-0264" }, "30001", "content.destinationHolding"},
		{"holding empty", "TransferRequests", func(c map[string]any) { c["destinationHolding"] = "" }, "30000", "content.destinationHolding"},
		{"holding missing", "CorrectTransferRequests", func(c map[string]any) {
			c["requestId"] = 1
			delete(c, "destinationHolding")
		}, "30000", "content.destinationHolding"},
		{"species UNKNOWN", "TransferRequests", func(c map[string]any) { c["species"] = "UNKNOWN" }, "4042", "content.species"},
		{"one holding at both ends", "TransferRequests", func(c map[string]any) { c["destinationHolding"] = farm1 }, "4063", "content.destinationHolding"},
		{"loaded after the departure", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "departureDetail", map[string]any{"departureDateTime": y + "T09:00:00Z", "loadingDateTime": y + "T10:00:00Z"})
		}, "21118", "content.movementDocument.departureDetail.loadingDateTime"},
		{"arrived before the departure", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(with(doc, "departureDetail", map[string]any{"departureDateTime": y + "T09:00:00Z"}),
				"destinationDetail", map[string]any{"arrivalDateTime": y + "T08:00:00Z"})
		}, "21116", "content.movementDocument.destinationDetail.arrivalDateTime"},
		{"unloaded before the arrival", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "destinationDetail", map[string]any{"arrivalDateTime": y + "T10:00:00Z", "unloadingDateTime": y + "T09:59:00Z"})
		}, "21121", "content.movementDocument.destinationDetail.unloadingDateTime"},
		{"animalCount 100000", "TransferRequests", func(c map[string]any) { c["animalCount"] = 100000 }, "4009", "content.animalCount"},
		{"a vehicle registration of one letter", "TransferRequests", func(c map[string]any) { c["transportVehicleRegistrationNo"] = "A" },
			"4061", "content.transportVehicleRegistrationNo"},
		{"the document's vehicle registration", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "transportDetail", map[string]any{"transportVehicleRegistrationNo": "AB12-CDE"})
		}, "21131", "content.movementDocument.transportDetail.transportVehicleRegistrationNo"},
		{"a haulier name over 50", "TransferRequests", func(c map[string]any) { c["transportHaulierName"] = strings.Repeat("h", 51) },
			"30061", "content.transportHaulierName"},
		{"moves in two hours", "TransferRequests", func(c map[string]any) {
			c["transferDate"] = time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
		}, "V019", "content.transferDate"},
		{"departs tomorrow", "TransferRequests", func(c map[string]any) {
			c["movementDocument"] = with(doc, "departureDetail", map[string]any{"departureDateTime": day(1) + "T12:00:00Z"})
		}, "21110", "content.movementDocument.departureDetail.departureDateTime"},
		{"born in the future", "TransferRequests", func(c map[string]any) {
			d := detail("beginBirthPeriod", day(2))
			d[0]["endBirthPeriod"] = day(3)
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": d}}
		}, "8038", "content.movementGroups[0].devicesWithDetail[0].beginBirthPeriod"},
		{"a birth period ending in the future", "TransferRequests", func(c map[string]any) {
			d := detail("beginBirthPeriod", day(-5))
			d[0]["endBirthPeriod"] = day(2)
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": d}}
		}, "8039", "content.movementGroups[0].devicesWithDetail[0].endBirthPeriod"},
		{"a date of birth in two days", "TransferRequests", func(c map[string]any) { // two: the clock's skew allowed may make tomorrow today
			c["movementGroups"] = []map[string]any{{"devicesWithDetail": []map[string]any{{"tagNumber": "UK0130181 00020", "dateOfBirth": day(2)}}}}
		}, "8038", "content.movementGroups[0].devicesWithDetail[0].dateOfBirth"},
		{"born after the tags were applied", "TransferRequests", func(c map[string]any) {
			c["deviceApplication"] = map[string]any{"dateOfApplication": day(-10) + "T00:00:00Z", "beginBirthPeriod": day(-5), "endBirthPeriod": day(-4)}
		}, "8025", "content.deviceApplication.beginBirthPeriod"},
		{"a birth period ending after the tags were applied", "TransferRequests", func(c map[string]any) {
			c["deviceApplication"] = map[string]any{"dateOfApplication": day(-10), "beginBirthPeriod": day(-12), "endBirthPeriod": day(-8)}
		}, "8040", "content.deviceApplication.endBirthPeriod"},
		{"cattle with an rfid", "TransferRequests", func(c map[string]any) {
			c["species"] = "Cattle"
			c["movementGroups"] = []map[string]any{{"devices": []map[string]any{{"tagNumber": "UK701212100013", "rfid": "0826010130100020"}}}}
		}, "3028", "content.movementGroups[0].devices[0].rfid"},
	} {
		content := transfer(y+"T09:00:00Z", farm1, farm2, farm1, sheep("130181", 20), nil)
		tc.change(content)
		res := b.post(k1, tc.collection, map[string]any{"content": content})
		if status, code, target := liveRefusal(res); status != http.StatusBadRequest || code != tc.code || target != tc.target {
			t.Errorf("%s: %d %s at %q, want 400 %s at %q\n%s", tc.name, status, code, target, tc.code, tc.target, res.body)
		}
	}

	// Dates that cannot be are refused together: a birth in the future and
	// one after its tagging, in one answer.
	both := transfer(y+"T09:00:00Z", farm1, farm2, farm1, nil, nil)
	d := detail("beginBirthPeriod", day(2))
	d[0]["endBirthPeriod"] = day(3)
	both["movementGroups"], both["animalCount"] = []map[string]any{{"devicesWithDetail": d}}, 1
	both["deviceApplication"] = map[string]any{"dateOfApplication": day(-10), "beginBirthPeriod": day(-5), "endBirthPeriod": day(-4)}
	if res := b.post(k1, "TransferRequests", map[string]any{"content": both}); res.status != http.StatusBadRequest ||
		!slices.Contains(errorCodes(res.body), "8038") || !slices.Contains(errorCodes(res.body), "8025") {
		t.Errorf("a birth in the future and one after its tagging: %d %v, want 400 with 8038 and 8025\n%s", res.status, errorCodes(res.body), res.body)
	}

	// The review's and the undo's own codes for a body that names nothing.
	for _, tc := range []struct {
		collection, body, code string
	}{
		{"ReviewHoldingMovementRequests", `{"content":null}`, "21370"},
		{"ReviewHoldingMovementRequests", `{"content":{"holding":"` + farm1 + `"}}`, "21371"},
		{"ReviewHoldingMovementRequests", `{"content":{"holding":"` + farm1 + `","reviewMovement":{"isAccepted":false}}}`, "21372"},
		{"ReviewHoldingMovementRequests", `{"content":{"holding":"` + farm1 + `","reviewMovement":{"requestId":1}}}`, "21374"},
		{"ReviewHoldingMovementRequests", `{"content":{"holding":"01-100-0257","reviewMovement":{"requestId":1,"isAccepted":false}}}`, "30001"},
		{"ReviewHoldingMovementRequests", `{"content":{"holding":"` + farm1 + `","reviewMovement":{"requestId":1,"isAccepted":true,` +
			`"acceptedDevices":[{"tagNumber":"UK12345"}]}}}`, "30019"},
		{"ReviewHoldingMovementRequests", `{"content":{"holding":"` + farm1 + `","reviewMovement":{"requestId":1,"isAccepted":false,` +
			`"rejectedDevices":[{"tagNumber":null}]}}}`, "30017"},
		{"UndoRequests", `{"content":null}`, "14003"},
		{"UndoRequests", `{"content":{}}`, "14003"},
		{"UndoRequests", `{}`, "14003"},
		{"ReviewHoldingMovementRequests", `{"requestId":0}`, "21370"},
		// The live "request is NULL" for a transfer or correction with no content.
		{"TransferRequests", `{"content":null}`, "30072"},
		{"TransferRequests", `{}`, "30072"},
		{"CorrectTransferRequests", `{"content":null}`, "30072"},
		{"CorrectTransferRequests", `{"requestId":0}`, "30072"},
	} {
		res := b.do(http.MethodPost, "/v1/"+tc.collection, k1, strings.NewReader(tc.body), "Content-Type", "application/json")
		if status, code, _ := liveRefusal(res); status != http.StatusBadRequest || code != tc.code {
			t.Errorf("%s %s: %d %s, want 400 %s\n%s", tc.collection, tc.body, status, code, tc.code, res.body)
		}
	}

	// The review look-up's own code for a species not given.
	res := b.get("/v1/HoldingMovementForReviews/ReviewBySpecies(species=,holding="+farm1Path+")", k1)
	if status, code, target := liveRefusal(res); status != http.StatusBadRequest || code != "22080" || target != "species" {
		t.Errorf("the look-up with no species: %d %s at %q, want 400 22080 at species\n%s", status, code, target, res.body)
	}
}
