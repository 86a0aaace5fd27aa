package api_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// approvedRow is the part of an approved movement the ordering checks read.
type approvedRow struct {
	ID           int64  `json:"id"`
	RecordedBy   string `json:"recordedBy"`
	TransferDate string `json:"transferDate"`
	Source       string `json:"sourceHolding"`
}

func (a approvedRow) key() string { return fmt.Sprintf("%d/%s", a.ID, a.RecordedBy) }

// TestApprovedQueryOptions: the approved movements take the query options
// the live definition declares for them, as the request collections do:
// $orderby with an exact @odata.nextLink, $count=true, $select, $expand
// to depth 2, in any case and without $, on the collection and on
// ByTransferDateRange; and no /$count, which the live definition lacks.
func TestApprovedQueryOptions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{MaxPage: 2})
		k1, k2, insp := b.token("keeper1"), b.token("keeper2"), b.token("inspector")
		// Departure records from keeper1, two on one day at times of day
		// (a page's last record keeps its time in the $skiptoken); a
		// move keeper2 reported and keeper1 accepted, and one keeper1
		// reported and keeper2 accepted: each recorded by both ends.
		for i, d := range []string{day(-6), day(-4) + "T15:00:00Z", day(-4) + "T09:30:00Z"} {
			b.submit(k1, "TransferRequests", transfer(d, farm1, farm2, farm1, sheep("130182", i+1), nil))
		}
		on := b.submit(k2, "TransferRequests", transfer(day(-5), farm1, farm2, farm2, sheep("130182", 4), nil))
		b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 1)) // keeper1's consent
		off := b.submit(k1, "TransferRequests", transfer(day(-3), farm1, farm2, farm1, sheep("130182", 5), nil))
		b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": off.RequestID, "isAccepted": true, "arrivalDate": day(-2), "animalTotal": 1}})

		walk := func(path string) (rows []approvedRow) {
			t.Helper()
			for range 20 {
				res := b.get(path, insp)
				if res.status != http.StatusOK {
					t.Fatalf("GET %s = %d %s", path, res.status, res.body)
				}
				var p struct {
					Value    []approvedRow `json:"value"`
					NextLink string        `json:"@odata.nextLink"`
				}
				res.decode(&p)
				rows = append(rows, p.Value...)
				if p.NextLink == "" {
					return rows
				}
				path = strings.TrimPrefix(p.NextLink, b.url)
			}
			t.Fatalf("%s: the nextLinks do not end", path)
			return nil
		}
		all := walk("/v1/ApprovedMovements")
		if len(all) != 7 {
			t.Fatalf("%d records, want 7: %+v", len(all), all)
		}
		keys := func(rows []approvedRow) (out []string) {
			for _, r := range rows {
				out = append(out, r.key())
			}
			return out
		}
		byKey := func(a, b approvedRow) int {
			return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.RecordedBy, b.RecordedBy))
		}
		for _, tc := range []struct {
			query string
			less  func(a, b approvedRow) int
		}{
			{"$orderby=transferDate%20desc", func(a, b approvedRow) int { return cmp.Compare(b.TransferDate, a.TransferDate) }},
			{"orderby=recordedBy%20desc&$select=id,recordedBy,transferDate", func(a, b approvedRow) int { return cmp.Compare(b.RecordedBy, a.RecordedBy) }},
			{"$ORDERBY=id%20desc", func(a, b approvedRow) int { return cmp.Compare(b.ID, a.ID) }},
			{"$orderby=recordedBy,transferDate%20desc,id", func(a, b approvedRow) int {
				return cmp.Or(cmp.Compare(a.RecordedBy, b.RecordedBy), cmp.Compare(b.TransferDate, a.TransferDate))
			}},
		} {
			want := slices.Clone(all)
			slices.SortStableFunc(want, func(a, b approvedRow) int { return cmp.Or(tc.less(a, b), byKey(a, b)) })
			if got := walk("/v1/ApprovedMovements?" + tc.query); !slices.Equal(keys(got), keys(want)) {
				t.Errorf("%s walked %v, want %v", tc.query, keys(got), keys(want))
			}
		}

		// $count=true counts every page; $select cuts each record and says so.
		type page struct {
			Context string                       `json:"@odata.context"`
			Count   *int64                       `json:"@odata.count"`
			Value   []map[string]json.RawMessage `json:"value"`
		}
		var p page
		b.get("/v1/ApprovedMovements?$count=true&$select=id,recordedBy&$filter="+escape("recordedBy eq 'Departure'"), insp).decode(&p)
		if p.Count == nil || *p.Count != 5 || len(p.Value) != 2 || !strings.HasSuffix(p.Context, "#ApprovedMovements(id,recordedBy)") {
			t.Errorf("$count=true with $select: count %v, %d items, context %q", p.Count, len(p.Value), p.Context)
		}
		for _, item := range p.Value {
			if len(item) != 2 {
				t.Errorf("$select=id,recordedBy gave %v", item)
			}
		}
		// ByTransferDateRange takes them too.
		p = page{}
		b.get(rangePath("1", day(-5)+"T00:00:00Z", day(0)+"T00:00:00Z", farm1Path, "")+"?$count=true&$orderby=transferDate%20desc&$select=id,transferDate", k1).decode(&p)
		if p.Count == nil || *p.Count != 4 || len(p.Value) != 2 || string(p.Value[0]["id"]) != fmt.Sprint(off.RequestID) {
			t.Errorf("ByTransferDateRange with $count, $orderby and $select: count %v, %v", p.Count, p.Value)
		}
		// $expand keeps a related member under $select, to depth 2; the key
		// is always kept.
		one := fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", off.RequestID)
		var rec map[string]json.RawMessage
		b.get(one+"?$select=id&$expand=devices,movementDocument/destinationDetail", k2).decode(&rec)
		if rec["id"] == nil || rec["recordedBy"] == nil || rec["devices"] == nil || rec["movementDocument"] == nil || rec["batches"] != nil ||
			!strings.HasSuffix(string(rec["@odata.context"]), `#ApprovedMovements(id,recordedBy)/$entity"`) {
			t.Errorf("one record with $select and $expand: %v", rec)
		}

		// Refusals name the option.
		for _, tc := range []struct{ path, option string }{
			{"/v1/ApprovedMovements?$expand=devices/approvedMovement", "$expand"},
			{"/v1/ApprovedMovements?$expand=movementDocument/destinationDetail/destinationKeeper", "$expand"},
			{one + "?$expand=colour", "$expand"},
			{"/v1/ApprovedMovements?$orderby=id,transferDate,speciesId,recordedBy,sourceHolding,destinationHolding", "$orderby"},
			{"/v1/ApprovedMovements?$orderby=animalTotal", "$orderby"},
			{"/v1/ApprovedMovements?$select=id,colour", "$select"},
			{one + "?$select=colour", "$select"},
			{"/v1/ApprovedMovements?$count=maybe", "$count"},
			{"/v1/ApprovedMovements?$orderby=id%20desc&$skiptoken=" + url.QueryEscape("djE6Mg"), "$skiptoken"},
		} {
			res := b.get(tc.path, insp)
			if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), tc.option) {
				t.Errorf("GET %s = %d %.300s, want a 400 naming %s", tc.path, res.status, res.body, tc.option)
			}
		}
		if res := b.do(http.MethodGet, "/v1/ApprovedMovements/$count", insp, nil); res.status != http.StatusNotFound {
			t.Errorf("GET /v1/ApprovedMovements/$count = %d, want 404: the live definition has no such route", res.status)
		}
	})
}

// TestApprovedMembers: an approved movement shows what its transfer said
// (the live TransferModel's haulier, vehicle, batch marks and stock types,
// processing flags with their ids, document) and the batch lines' ids the
// review look-up shows; what the transfer did not say is null.
func TestApprovedMembers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sent := b.submitWhole(k1, "TransferRequests", liveTransfer())
		plain := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, "01/100/0258", farm1, sheep("130182", 1), nil))
		if !sent.applied() || !plain.applied() {
			t.Fatalf("transfers: %s %+v; %s %+v", sent.RequestStatus, sent.Errors, plain.RequestStatus, plain.Errors)
		}
		var look struct {
			Value []struct {
				RequestID     int64 `json:"requestId"`
				ReviewBatches []struct {
					BatchMovementID int64 `json:"batchMovementId"`
				} `json:"reviewBatches"`
			} `json:"value"`
		}
		b.get("/v1/HoldingMovementForReviews(species=Sheep,holding="+farm2Path+")", k2).decode(&look)
		if len(look.Value) != 1 || len(look.Value[0].ReviewBatches) != 1 {
			t.Fatalf("review look-up: %+v", look)
		}
		type flag struct {
			ProcessingFlagID *int64 `json:"processingFlagId"`
			ProcessingFlag   struct {
				ID       *int64 `json:"id"`
				FlagName string `json:"flagName"`
			} `json:"processingFlag"`
		}
		type member struct {
			Haulier  *string `json:"transportHaulierName"`
			Vehicle  *string `json:"transportVehicleRegistrationNo"`
			Document struct {
				Ref       string                `json:"movementDocumentRef"`
				Type      struct{ Name string } `json:"documentType"`
				Transport *struct {
					Haulier *string `json:"transportHaulierName"`
					Vehicle *string `json:"transportVehicleRegistrationNo"`
				} `json:"transportDetail"`
			} `json:"movementDocument"`
			Batches []struct {
				BatchMovementID int64   `json:"batchMovementId"`
				BatchNumber     *string `json:"batchNumber"`
				IDMark          *string `json:"idMark"`
				StockType       *string `json:"stockType"`
				AnimalTotal     int     `json:"animalTotal"`
			} `json:"batches"`
			Flags []flag `json:"approvedMovementProcessingFlags"`
		}
		var got member
		b.get(fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", sent.RequestID), k1).decode(&got)
		str := func(p *string) string {
			if p == nil {
				return "<null>"
			}
			return *p
		}
		if str(got.Haulier) != "A. Haulier Ltd" || str(got.Vehicle) != "AB12CDE" || got.Document.Transport == nil ||
			str(got.Document.Transport.Haulier) != "A. Haulier Ltd" || got.Document.Ref != "CLA-0001" || got.Document.Type.Name != "CLA" {
			t.Errorf("haulier, vehicle, document: %+v", got)
		}
		if len(got.Batches) != 1 || got.Batches[0].BatchMovementID != look.Value[0].ReviewBatches[0].BatchMovementID ||
			str(got.Batches[0].IDMark) != "red spot" || str(got.Batches[0].StockType) != "Ewes" || str(got.Batches[0].BatchNumber) != "UK130181" {
			t.Errorf("batches: %+v, the look-up's line %d", got.Batches, look.Value[0].ReviewBatches[0].BatchMovementID)
		}
		if len(got.Flags) != 1 || got.Flags[0].ProcessingFlagID == nil || *got.Flags[0].ProcessingFlagID != 8 ||
			got.Flags[0].ProcessingFlag.ID == nil || *got.Flags[0].ProcessingFlag.ID != 8 || got.Flags[0].ProcessingFlag.FlagName != "InBus" {
			t.Errorf("flags: %+v", got.Flags)
		}
		var bare member
		b.get(fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", plain.RequestID), k1).decode(&bare)
		if bare.Haulier != nil || bare.Vehicle != nil || bare.Document.Transport != nil || len(bare.Flags) != 0 {
			t.Errorf("a transfer that named no haulier, vehicle or flag: %+v", bare)
		}
	})
}
