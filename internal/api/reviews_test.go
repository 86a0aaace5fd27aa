package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// liveReviewItem is the live HoldingMovementForReview: every member the
// look-up answers, by its live name.
type liveReviewItem struct {
	RequestID                      int64   `json:"requestId"`
	MovementDate                   string  `json:"movementDate"`
	Species                        *string `json:"species"`
	SourceHolding                  *string `json:"sourceHolding"`
	DestinationHolding             *string `json:"destinationHolding"`
	UserHolding                    *string `json:"userHolding"`
	AnimalTotal                    int     `json:"animalTotal"`
	IsAccepted                     *bool   `json:"isAccepted"`
	IsDuplicate                    bool    `json:"isDuplicate"`
	DuplicateRequestIDs            []int64 `json:"duplicateRequestIds"`
	DocumentType                   *string `json:"documentType"`
	DocumentRef                    *string `json:"documentRef"`
	TransportHaulierName           *string `json:"transportHaulierName"`
	TransportVehicleRegistrationNo *string `json:"transportVehicleRegistrationNo"`
	ReviewDevices                  []struct {
		TagNumber, RFID *string
	} `json:"reviewDevices"`
	ReviewBatches []struct {
		BatchMovementID int64   `json:"batchMovementId"`
		BatchNumber     *string `json:"batchNumber"`
		AnimalTotal     int     `json:"animalTotal"`
	} `json:"reviewBatches"`
}

// liveItemMembers are the members of the live HoldingMovementForReview.
var liveItemMembers = []string{"animalTotal", "destinationHolding", "documentRef", "documentType", "duplicateRequestIds",
	"isAccepted", "isDuplicate", "movementDate", "requestId", "reviewBatches", "reviewDevices", "sourceHolding", "species",
	"transportHaulierName", "transportVehicleRegistrationNo", "userHolding"}

// TestReviewByBatchMovementID: a transfer is looked up in the live shape,
// with the bare key values of the live path template, and reviewed in the
// live shape, naming its batch lines by the batchMovementId the look-up
// shows; a review's content is stored and shown in that shape.
func TestReviewByBatchMovementID(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		move := transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1, 2),
			[]map[string]any{{"batchNumber": "UK130181", "animalTotal": 5}, {"batchNumber": "UK130182", "animalTotal": 3}})
		move["transportHaulierName"], move["transportVehicleRegistrationNo"] = "A. Haulier Ltd", "AB12 CDE"
		sent := b.submit(k1, "TransferRequests", move)
		// The same batch reported again the same day: a duplicate. A batch
		// of no known number is not.
		again := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, nil,
			[]map[string]any{{"batchNumber": "UK130181", "animalTotal": 2}}))
		other := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, nil,
			[]map[string]any{{"batchNumber": "unknown", "animalTotal": 1}}))

		const bare = "/v1/HoldingMovementForReviews/ReviewBySpecies(species=Sheep,holding=01%2F100%2F0264)"
		res := b.do(http.MethodGet, bare, k2, nil)
		var raw struct{ Value []map[string]json.RawMessage }
		var page struct{ Value []liveReviewItem }
		res.decode(&raw)
		res.decode(&page)
		if res.status != http.StatusOK || len(page.Value) != 3 {
			t.Fatalf("GET %s = %d %s", bare, res.status, res.body)
		}
		for _, item := range raw.Value {
			var members []string
			for k := range item {
				members = append(members, k)
			}
			slices.Sort(members)
			if diff := cmp.Diff(liveItemMembers, members); diff != "" {
				t.Errorf("look-up item members (-live +got):\n%s", diff)
			}
		}
		item := page.Value[0]
		str := func(p *string) string {
			if p == nil {
				return "<null>"
			}
			return *p
		}
		if item.RequestID != sent.RequestID || item.AnimalTotal != 10 || item.IsAccepted != nil || str(item.UserHolding) != farm1 ||
			str(item.TransportHaulierName) != "A. Haulier Ltd" || str(item.TransportVehicleRegistrationNo) != "AB12 CDE" ||
			str(item.DocumentRef) != movements.DocumentRef(sent.RequestID) || len(item.ReviewDevices) != 2 || len(item.ReviewBatches) != 2 {
			t.Fatalf("look-up item = %+v", item)
		}
		lines := item.ReviewBatches
		if lines[0].BatchMovementID <= 0 || lines[1].BatchMovementID <= 0 || lines[0].BatchMovementID == lines[1].BatchMovementID ||
			str(lines[1].BatchNumber) != "UK130182" || lines[1].AnimalTotal != 3 {
			t.Errorf("reviewBatches = %+v, want two lines with ids of their own", lines)
		}
		if !item.IsDuplicate || !slices.Equal(item.DuplicateRequestIDs, []int64{again.RequestID}) ||
			!page.Value[1].IsDuplicate || !slices.Equal(page.Value[1].DuplicateRequestIDs, []int64{sent.RequestID}) {
			t.Errorf("duplicates: %v %v and %v %v, want each the other's", item.IsDuplicate, item.DuplicateRequestIDs,
				page.Value[1].IsDuplicate, page.Value[1].DuplicateRequestIDs)
		}
		if last := page.Value[2]; last.RequestID != other.RequestID || last.IsDuplicate || last.DuplicateRequestIDs == nil || len(last.DuplicateRequestIDs) != 0 {
			t.Errorf("a movement with nothing in common: %+v, want isDuplicate false and []", last)
		}

		// keeper2 accepts the sheep (one named by its RFID) and the first
		// batch line, and rejects the second line whole (no animalTotal);
		// isAccepted is left null for the lists to decide.
		review := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{
			"holding": farm2, "id": 0, "trackingId": "review-by-line-1",
			"processingFlags": []map[string]any{{"processingFlagId": nil, "name": "SLAU"}},
			"reviewMovement": map[string]any{
				"requestId": sent.RequestID, "isAccepted": nil, "arrivalDate": day(0) + "T00:00:00Z", "animalTotal": 7,
				"acceptedDevices": []map[string]any{{"rfid": "0826013018100001"}, {"tagNumber": "UK0130181 00002", "freezebrand": nil}},
				"acceptedBatches": []map[string]any{{"batchMovementId": lines[0].BatchMovementID, "animalTotal": 5, "idMark": "red", "stockType": "Ewe"}},
				"rejectedBatches": []map[string]any{{"batchMovementId": lines[1].BatchMovementID, "batchNumber": "UK130182"}},
			},
		})
		if errs, _ := review.codes(); review.RequestStatus != "Success" || errs != nil {
			t.Fatalf("review by batchMovementId = %+v", review)
		}
		var content struct {
			TrackingID      string `json:"trackingId"`
			ProcessingFlags []map[string]any
			ReviewMovement  struct {
				IsAccepted      *bool  `json:"isAccepted"`
				ArrivalDate     string `json:"arrivalDate"`
				AcceptedDevices []struct{ TagNumber, RFID string }
				AcceptedBatches []struct {
					BatchMovementID int64 `json:"batchMovementId"`
					IDMark          string
				}
			} `json:"reviewMovement"`
		}
		if err := json.Unmarshal(review.Content, &content); err != nil {
			t.Fatal(err)
		}
		rm := content.ReviewMovement
		if content.TrackingID != "review-by-line-1" || review.TrackingID != "review-by-line-1" || len(content.ProcessingFlags) != 1 ||
			content.ProcessingFlags[0]["name"] != "SLAU" || rm.IsAccepted == nil || !*rm.IsAccepted ||
			rm.ArrivalDate != day(0)+"T00:00:00Z" || len(rm.AcceptedDevices) != 2 || rm.AcceptedDevices[0].TagNumber != "UK0130181 00001" ||
			len(rm.AcceptedBatches) != 1 || rm.AcceptedBatches[0].BatchMovementID != lines[0].BatchMovementID || rm.AcceptedBatches[0].IDMark != "red" {
			t.Errorf("review content = %s", review.Content)
		}
		// The accepted sheep are keeper2's now.
		if errs, _ := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 1), nil)).codes(); !slices.Equal(errs, []string{livestock.LiveCode(livestock.EndpointTransfer, livestock.CodeDeviceNotOnSource)}) {
			t.Errorf("moving a sheep accepted onto farm2 from farm1: %v, want V014", errs)
		}
		// The review decided the first movement; the other two still await.
		var left struct{ Value []liveReviewItem }
		b.do(http.MethodGet, bare, k2, nil).decode(&left)
		if len(left.Value) != 2 || left.Value[0].RequestID != again.RequestID {
			t.Errorf("awaiting review after it: %+v", left.Value)
		}

		// A batchMovementId of another movement is not a line of this one:
		// the live catalogue's own code for it.
		wrong := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": other.RequestID, "isAccepted": true, "arrivalDate": day(0),
				"acceptedBatches": []map[string]any{{"batchMovementId": left.Value[0].ReviewBatches[0].BatchMovementID}}}})
		if errs, _ := wrong.codes(); !slices.Equal(errs, []string{"21377"}) || wrong.Errors[0].Target != "content.reviewMovement.acceptedBatches[0].batchMovementId" {
			t.Errorf("a line of another movement: %s %+v, want 21377 (an invalid BatchMovement_ID) at its batchMovementId", wrong.RequestStatus, wrong.Errors)
		}
		// A line of its own named in both lists is named twice.
		own := left.Value[1].ReviewBatches[0].BatchMovementID
		twice := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": other.RequestID, "isAccepted": true, "arrivalDate": day(0),
				"acceptedBatches": []map[string]any{{"batchMovementId": own}}, "rejectedBatches": []map[string]any{{"batchMovementId": own}}}})
		if errs, _ := twice.codes(); !slices.Contains(errs, "21378") {
			t.Errorf("a line named twice: %s %+v, want 21378 (a duplicate BatchMovement_ID)", twice.RequestStatus, twice.Errors)
		}
	})
}

// TestReviewRefusedAtOnce: what a review cannot be read as is a 400
// naming the member.
func TestReviewRefusedAtOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k2 := b.token("keeper2")
	for _, tc := range []struct {
		name   string
		review map[string]any
		source string
	}{
		{"isAccepted null and no lists", map[string]any{"requestId": 7, "isAccepted": nil, "arrivalDate": day(0)}, "/content/reviewMovement/isAccepted"},
		{"a device by freeze brand alone", map[string]any{"requestId": 7, "isAccepted": true, "arrivalDate": day(0),
			"rejectedDevices": []map[string]any{{"freezebrand": "AB12"}}}, "/content/reviewMovement/rejectedDevices/0/tagNumber"},
		{"a batch named by nothing", map[string]any{"requestId": 7, "isAccepted": true, "arrivalDate": day(0),
			"rejectedBatches": []map[string]any{{"animalTotal": 1}}}, "/content/reviewMovement/rejectedBatches/0/batchMovementId"},
		{"an rfid of another tag", map[string]any{"requestId": 7, "isAccepted": true, "arrivalDate": day(0),
			"acceptedDevices": []map[string]any{{"tagNumber": "UK0130181 00002", "rfid": "0826013018100001"}}}, "/content/reviewMovement/acceptedDevices/0/tagNumber"},
		// A rejection that says what it accepts: the live catalogue's own codes.
		{"a rejection naming accepted devices", map[string]any{"requestId": 7, "isAccepted": false, "arrivalDate": day(0),
			"acceptedDevices": []map[string]any{{"tagNumber": "UK0130181 00002"}}}, "/content/reviewMovement/acceptedDevices"},
		{"a rejection naming accepted batches", map[string]any{"requestId": 7, "isAccepted": false,
			"acceptedBatches": []map[string]any{{"batchNumber": "UK130181"}}}, "/content/reviewMovement/acceptedBatches"},
		{"a rejection with an animalTotal", map[string]any{"requestId": 7, "isAccepted": false, "animalTotal": 2}, "/content/reviewMovement/animalTotal"},
	} {
		res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": map[string]any{"holding": farm2, "reviewMovement": tc.review}})
		if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), `"`+tc.source+`"`) {
			t.Errorf("%s: %d %s, want 400 at %s", tc.name, res.status, res.body, tc.source)
		}
		want := map[string]string{"/content/reviewMovement/acceptedDevices": "21375", "/content/reviewMovement/acceptedBatches": "21375",
			"/content/reviewMovement/animalTotal": "21504"}[tc.source]
		if _, code, _ := liveRefusal(res); want != "" && code != want {
			t.Errorf("%s: live code %s, want %s", tc.name, code, want)
		}
	}
	// A rejection with animalTotal 0, as a client generated from the live
	// definition sends it, is no refusal of its animalTotal: its one error
	// is that request 7 does not exist.
	ok := map[string]any{"requestId": 7, "isAccepted": false, "animalTotal": 0, "arrivalDate": day(0)}
	res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": map[string]any{"holding": farm2, "reviewMovement": ok}})
	if _, code, _ := liveRefusal(res); res.status != http.StatusBadRequest || code != "21373" || strings.Contains(string(res.body), "animalTotal") {
		t.Errorf("a rejection with animalTotal 0: %d %s, want only 21373 (no such request)", res.status, res.body)
	}
}

// TestReviewLookupKeepsTheTime: the look-up shows the date-time the
// transfer named, and $filter compares it (livestock-movements.md:
// movementDate's "time component is mandatory"), though the movement
// keeps only its day.
func TestReviewLookupKeepsTheTime(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		d := day(-1)
		sent := b.submit(k1, "TransferRequests", transfer(d+"T06:30:00Z", farm1, farm2, farm1, sheep("130181", 1), nil))
		if !sent.applied() {
			t.Fatalf("transfer: %s %+v", sent.RequestStatus, sent.Errors)
		}
		lookup := "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='" + farm2Path + "')"
		for _, tc := range []struct {
			filter string
			want   []int64
		}{
			{"", []int64{sent.RequestID}},
			{"movementDate ge " + d + "T06:00:00Z", []int64{sent.RequestID}},
			{"movementDate ge " + d + "T07:00:00Z", nil},
			{"movementDate le " + d + "T00:00:00Z", nil},
			{"movementDate eq " + d + "T08:30:00%2b02:00", []int64{sent.RequestID}},
		} {
			path := lookup
			if tc.filter != "" {
				path += "?$filter=" + strings.ReplaceAll(tc.filter, " ", "%20")
			}
			var page struct{ Value []liveReviewItem }
			res := b.get(path, k2)
			res.decode(&page)
			var got []int64
			for _, it := range page.Value {
				got = append(got, it.RequestID)
				if it.MovementDate != d+"T06:30:00Z" {
					t.Errorf("%q: movementDate %q, want %sT06:30:00Z", tc.filter, it.MovementDate, d)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q: requestIds %v, want %v (%d %s)", tc.filter, got, tc.want, res.status, res.body)
			}
		}
	})
}

// TestReviewLookupSelect: the look-up takes $select, as the live
// definition declares for it: each item has only the members named.
func TestReviewLookupSelect(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1, k2 := b.token("keeper1"), b.token("keeper2")
	if sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1), nil)); !sent.applied() {
		t.Fatalf("transfer: %s %+v", sent.RequestStatus, sent.Errors)
	}
	lookup := "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='" + farm2Path + "')"
	res := b.get(lookup+"?$select=movementDate,requestId", k2)
	var page struct {
		Context string                       `json:"@odata.context"`
		Value   []map[string]json.RawMessage `json:"value"`
	}
	res.decode(&page)
	if len(page.Value) != 1 || len(page.Value[0]) != 2 || page.Value[0]["requestId"] == nil || page.Value[0]["movementDate"] == nil ||
		!strings.HasSuffix(page.Context, "#HoldingMovementForReviews(movementDate,requestId)") {
		t.Errorf("$select=movementDate,requestId: %d %s", res.status, res.body)
	}
	// The key is always there: a review names the movement by it.
	res = b.get(lookup+"?$select=sourceHolding", k2)
	page.Value = nil
	res.decode(&page)
	if len(page.Value) != 1 || len(page.Value[0]) != 2 || page.Value[0]["requestId"] == nil {
		t.Errorf("$select=sourceHolding: %d %s, want sourceHolding and requestId", res.status, res.body)
	}
	if res := b.do(http.MethodGet, lookup+"?$select=colour", k2, nil); res.status != http.StatusBadRequest || res.problem().Errors[0].Source != "query:$select" {
		t.Errorf("$select=colour: %d %s, want 400 at query:$select", res.status, res.body)
	}
}

// TestDuplicatesAtTimesOfDay: two reports of one batch's move on one day,
// each sent with its time of day, are each other's duplicates in the
// review look-up, as two sent as a plain date are.
func TestDuplicatesAtTimesOfDay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		var ids []int64
		for _, at := range []string{"T10:30:00Z", "T14:05:00Z"} {
			r := b.submit(k1, "TransferRequests", transfer(day(-1)+at, farm1, farm2, farm1, nil,
				[]map[string]any{{"batchNumber": "UK130181", "animalTotal": 2}}))
			if !r.applied() {
				t.Fatalf("transfer at %s: %s %+v", at, r.RequestStatus, r.Errors)
			}
			ids = append(ids, r.RequestID)
		}
		const path = "/v1/HoldingMovementForReviews/ReviewBySpecies(species=Sheep,holding=01%2F100%2F0264)"
		res := b.do(http.MethodGet, path, k2, nil)
		var page struct{ Value []liveReviewItem }
		res.decode(&page)
		if res.status != http.StatusOK || len(page.Value) != 2 {
			t.Fatalf("GET %s = %d %s", path, res.status, res.body)
		}
		for i, item := range page.Value {
			if other := ids[1-i]; item.RequestID != ids[i] || !item.IsDuplicate || !slices.Equal(item.DuplicateRequestIDs, []int64{other}) {
				t.Errorf("item %d: %d isDuplicate %v %v, want %d a duplicate of %d", i, item.RequestID, item.IsDuplicate,
					item.DuplicateRequestIDs, ids[i], other)
			}
		}
	})
}
