package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// approvedItem is the part of an ApprovedMovement the tests read.
type approvedItem struct {
	ID           int64  `json:"id"`
	RecordedBy   string `json:"recordedBy"`
	TransferDate string `json:"transferDate"`
	SpeciesID    int    `json:"speciesId"`
	AnimalTotal  int    `json:"animalTotal"`
	Document     struct {
		Destination *struct {
			ArrivalDateTime string `json:"arrivalDateTime"`
		} `json:"destinationDetail"`
	} `json:"movementDocument"`
	Devices []struct {
		TagNumber  string `json:"tagNumber"`
		RecordedBy string `json:"approvedMovementRecordedBy"`
	} `json:"devices"`
}

type approvedPage struct {
	Value    []approvedItem `json:"value"`
	NextLink string         `json:"@odata.nextLink"`
}

// keys names each record "<id>/<recordedBy>".
func (p approvedPage) keys() []string {
	out := []string{}
	for _, a := range p.Value {
		out = append(out, fmt.Sprintf("%d/%s", a.ID, a.RecordedBy))
	}
	return out
}

// errorCodes are the codes of an error body: the problem's errors, and
// those of an OData error ({"error": {code, details}}) should it carry one.
func errorCodes(body []byte) []string {
	var b struct {
		Errors []struct{ Code string } `json:"errors"`
		Error  *struct {
			Code    string
			Details []struct{ Code string }
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &b)
	var out []string
	for _, e := range b.Errors {
		out = append(out, e.Code)
	}
	if b.Error != nil {
		out = append(out, b.Error.Code)
		for _, d := range b.Error.Details {
			out = append(out, d.Code)
		}
	}
	return out
}

// TestApprovedMovements: each end's record of a movement, seen by the
// keepers of that end and the inspector; the record by its key; the
// transfer date range with the live service's rules; the same under /v1.0.
func TestApprovedMovements(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2, insp := b.token("keeper1"), b.token("keeper2"), b.token("inspector")

		// keeper1 moves three sheep off; keeper2 accepts two of them.
		off := b.submit(k1, "TransferRequests", transfer(day(-3), farm1, farm2, farm1, sheep("130181", 1, 2, 3), nil))
		review := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": off.RequestID, "isAccepted": true, "arrivalDate": day(-2), "animalTotal": 2,
				"rejectedDevices": []map[string]any{{"tagNumber": "UK0130181 00003"}}}})
		// keeper2 reports a sheep moved on from keeper1's farm: until
		// keeper1 consents, nothing arrived, and there is no record; once
		// keeper1 accepts it, each end has one (keeper2 recorded it,
		// keeper1 "reviewed and accepted" it, as the live recordedBy says).
		on := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 4), nil))
		if off.RequestStatus != "Success" || review.RequestStatus != "Success" || on.RequestStatus != "Success" {
			t.Fatalf("transfer %+v, review %+v, move on %+v", off, review, on)
		}
		// Not yet there and never there are one 404, naming the key's id.
		for _, id := range []int64{on.RequestID, 999999} {
			if res := b.get(fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", id), k2); res.status != http.StatusNotFound ||
				!strings.Contains(string(res.body), `"source":"path:id"`) || !strings.Contains(string(res.body), `"target":"id"`) {
				t.Errorf("ApprovedMovements(%d,Destination): %d %s, want a 404 naming id", id, res.status, res.body)
			}
		}
		if consent := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 1)); !consent.applied() {
			t.Fatalf("keeper1's consent: %+v", consent)
		}
		offD, offd, onD, ond := fmt.Sprintf("%d/Departure", off.RequestID), fmt.Sprintf("%d/Destination", off.RequestID),
			fmt.Sprintf("%d/Departure", on.RequestID), fmt.Sprintf("%d/Destination", on.RequestID)

		list := func(token, path string) approvedPage {
			t.Helper()
			res := b.get(path, token)
			if res.status != http.StatusOK {
				t.Fatalf("GET %s = %d %s", path, res.status, res.body)
			}
			var p approvedPage
			res.decode(&p)
			return p
		}
		for _, tc := range []struct {
			who, token, path string
			want             []string
		}{
			{"keeper1", k1, "/v1/ApprovedMovements", []string{offD, onD}},
			{"keeper2", k2, "/v1/ApprovedMovements", []string{offd, ond}},
			{"inspector", insp, "/v1/ApprovedMovements", []string{offD, offd, onD, ond}},
			{"inspector, $top and $skip", insp, "/v1/ApprovedMovements?$top=1&$skip=1", []string{offd}},
			{"$filter", insp, "/v1/ApprovedMovements?$filter=" + escape("recordedBy eq 'Destination' and sourceHolding eq '"+farm1+"'"), []string{offd, ond}},
			{"/v1.0", k2, "/v1.0/ApprovedMovements", []string{offd, ond}},
			{"range, keeper1", k1, rangePath("1", day(-10)+"T00:00:00Z", day(0)+"T23:59:59Z", "01%2F100%2F0257", "null"), []string{offD, onD}},
			{"range, quoted", k2, rangePath("1", "'"+day(-10)+"T00:00:00%2B01:00'", "'"+day(0)+"T23:59:59Z'", "''", "'01%2f100%2f0264'"), []string{offd, ond}},
			{"range, inspector by transfer date", insp, rangePath("1", day(-2)+"T00:00:00Z", day(0)+"T00:00:00Z", "", farm2Path), []string{onD, ond}},
			{"range, goats", insp, rangePath("2", day(-10)+"T00:00:00Z", day(0)+"T00:00:00Z", "", farm2Path), []string{}},
			{"range, /v1.0", k1, "/v1.0" + strings.TrimPrefix(rangePath("1", day(-10)+"T00:00:00Z", day(0)+"T00:00:00Z", farm1Path, ""), "/v1"), []string{offD, onD}},
		} {
			if got := list(tc.token, tc.path).keys(); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %s = %v, want %v", tc.who, tc.path, got, tc.want)
			}
		}

		// The departure's record holds what it reported; the destination's
		// what it accepted.
		all := list(insp, "/v1/ApprovedMovements").Value
		if a := all[0]; a.AnimalTotal != 3 || len(a.Devices) != 3 || a.SpeciesID != 1 || a.Devices[0].RecordedBy != "Departure" {
			t.Errorf("departure record = %+v", a)
		}
		if a := all[1]; a.AnimalTotal != 2 || len(a.Devices) != 2 || a.Devices[1].TagNumber != "UK0130181 00002" {
			t.Errorf("destination record = %+v", a)
		}

		// Paging without $top: @odata.nextLink, exact.
		paged := setup(t, s, api.Config{MaxPage: 2})
		pi := paged.token("inspector")
		first := approvedPage{}
		res := paged.do(http.MethodGet, "/v1/ApprovedMovements", pi, nil)
		res.decode(&first)
		if len(first.Value) != 2 || first.NextLink == "" {
			t.Fatalf("first page = %s", res.body)
		}
		next := approvedPage{}
		paged.do(http.MethodGet, strings.TrimPrefix(first.NextLink, paged.url), pi, nil).decode(&next)
		third := approvedPage{}
		if next.NextLink != "" {
			paged.do(http.MethodGet, strings.TrimPrefix(next.NextLink, paged.url), pi, nil).decode(&third)
		}
		if got := append(append(first.keys(), next.keys()...), third.keys()...); !slices.Equal(got, []string{offD, offd, onD, ond}) || third.NextLink != "" {
			t.Errorf("pages = %v, next %q", got, third.NextLink)
		}

		// One record by its key, in OData's spellings.
		for _, tc := range []struct {
			token, path string
			status      int
		}{
			{k1, fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", off.RequestID), 200},
			{k2, fmt.Sprintf("/v1/ApprovedMovements(%d,'Destination')", off.RequestID), 200},
			{insp, fmt.Sprintf("/v1/ApprovedMovements(id=%d,recordedBy='Departure')", off.RequestID), 200},
			{k1, fmt.Sprintf("/v1.0/ApprovedMovements(%d,Departure)", off.RequestID), 200},
			{k2, fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", off.RequestID), 404}, // not keeper2's end
			{k1, fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", on.RequestID), 200},  // keeper1 accepted it
			{k2, fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", on.RequestID), 404},  // keeper1's end
			{k1, fmt.Sprintf("/v1/ApprovedMovements(%d,Sideways)", off.RequestID), 400},
			{k1, "/v1/ApprovedMovements(x,Departure)", 400},
		} {
			if res := b.get(tc.path, tc.token); res.status != tc.status {
				t.Errorf("GET %s = %d %s, want %d", tc.path, res.status, res.body, tc.status)
			}
		}
		var one approvedItem
		b.do(http.MethodGet, fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", off.RequestID), k2, nil).decode(&one)
		if one.ID != off.RequestID || one.RecordedBy != "Destination" || one.AnimalTotal != 2 {
			t.Errorf("one record = %+v", one)
		}
	})
}

// TestApprovedKeepsTheTime: an approved movement's transferDate is the
// date-time its transfer named, as the live definition types it, and
// $filter and ByTransferDateRange compare that; a range's end given as a
// plain date takes in the whole of that day.
func TestApprovedKeepsTheTime(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		d := day(-1)
		on := b.submit(k2, "TransferRequests", transfer(d+"T19:40:00Z", farm1, farm2, farm2, sheep("130181", 4), nil))
		if !on.applied() {
			t.Fatalf("transfer: %s %+v", on.RequestStatus, on.Errors)
		}
		if consent := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 1)); !consent.applied() {
			t.Fatalf("keeper1's consent: %+v", consent)
		}
		var one approvedItem
		b.do(http.MethodGet, fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", on.RequestID), k2, nil).decode(&one)
		if one.TransferDate != d+"T19:40:00Z" {
			t.Errorf("transferDate = %q, want %sT19:40:00Z", one.TransferDate, d)
		}
		ond := []string{fmt.Sprintf("%d/Destination", on.RequestID)}
		for _, tc := range []struct {
			path string
			want []string
		}{
			{"/v1/ApprovedMovements?$filter=" + escape("transferDate gt "+d+"T19:00:00Z and transferDate lt "+d+"T20:00:00Z"), ond},
			{"/v1/ApprovedMovements?$filter=" + escape("transferDate ge "+d+"T00:00:00Z and transferDate le "+d+"T19:00:00Z"), []string{}},
			{"/v1/ApprovedMovements?$filter=" + escape("transferDate eq "+d+"T21:40:00%2B02:00"), ond},
			{rangePath("1", d, d, "", farm2Path), ond},
			{rangePath("1", d+"T00:00:00Z", d+"T12:00:00Z", "", farm2Path), []string{}},
			{rangePath("1", d+"T19:40:00Z", d+"T23:00:00Z", "", farm2Path), ond},
		} {
			res := b.get(tc.path, k2)
			var p approvedPage
			res.decode(&p)
			if got := p.keys(); !slices.Equal(got, tc.want) {
				t.Errorf("%s = %v, want %v (%d %s)", tc.path, got, tc.want, res.status, res.body)
			}
		}
		// A reviewed move arrives when its review says, to the second, and
		// the review's own movementDate is that instant.
		off := b.submit(k1, "TransferRequests", transfer(d+"T08:05:00Z", farm1, farm2, farm1, sheep("130181", 5), nil))
		review := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": off.RequestID, "isAccepted": true, "arrivalDate": d + "T14:30:00+01:00", "animalTotal": 1}})
		if review.RequestStatus != "Success" || review.MovementDate != d+"T13:30:00Z" {
			t.Fatalf("review: %s %+v, movementDate %q; want Success at %sT13:30:00Z", review.RequestStatus, review.Errors, review.MovementDate, d)
		}
		var arrived approvedItem
		b.do(http.MethodGet, fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", off.RequestID), k2, nil).decode(&arrived)
		if arrived.Document.Destination == nil || arrived.Document.Destination.ArrivalDateTime != d+"T13:30:00Z" {
			t.Errorf("the reviewed move's movementDocument %+v, want arrivalDateTime %sT13:30:00Z", arrived.Document, d)
		}
		// A move that needs no review arrives when it was made.
		own := b.submit(k1, "TransferRequests", transfer(d+"T06:45:00Z", farm1, yard1, farm1, sheep("130181", 6), nil))
		var there approvedItem
		b.do(http.MethodGet, fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", own.RequestID), k1, nil).decode(&there)
		if !own.applied() || there.Document.Destination == nil || there.Document.Destination.ArrivalDateTime != d+"T06:45:00Z" {
			t.Errorf("a move needing no review: %s, movementDocument %+v, want arrivalDateTime %sT06:45:00Z", own.RequestStatus, there.Document, d)
		}
	})
}

// get is b.do for GET, with a path under /v1.0 sent as it is and its
// answer held to the document's operation at the same path under /v1.
func (b *bundle) get(path, token string) response {
	b.t.Helper()
	rest, alias := strings.CutPrefix(path, "/v1.0/")
	if !alias {
		return b.do(http.MethodGet, path, token, nil)
	}
	res := rawGet(b.t, b, path, token)
	u, err := url.Parse(b.url + path)
	if err != nil {
		b.t.Fatal(err)
	}
	canonical := strings.Replace(u.EscapedPath(), "/v1.0/", "/v1/", 1)
	if err := b.doc.ValidateResponse(http.MethodGet, canonical, res.status, res.header, res.body); err != nil {
		b.t.Errorf("the response to /v1.0/%s breaks the OpenAPI document: %v\nbody: %.500s", rest, err, res.body)
	}
	return res
}

const (
	farm1Path = "01%2F100%2F0257"
	farm2Path = "01%2F100%2F0264"
)

func rangePath(species, start, end, departure, destination string) string {
	return fmt.Sprintf("/v1/ApprovedMovements/ByTransferDateRange(speciesId=%s,startTransferDate=%s,endTransferDate=%s,departureHolding=%s,destinationHolding=%s)",
		species, start, end, departure, destination)
}

func escape(s string) string {
	return strings.NewReplacer(" ", "%20", "'", "%27", "/", "%2F").Replace(s)
}

// TestApprovedRangeRules: every rule of ByTransferDateRange is a 400 with
// its code (the live code beside it), naming the parameter; a keeper
// naming only holdings of others is refused.
func TestApprovedRangeRules(t *testing.T) {
	t.Parallel()
	s := storetest.OpenSQLite(t)
	b := setup(t, s, api.Config{})
	k1, insp := b.token("keeper1"), b.token("inspector")
	ok := day(-10) + "T00:00:00Z"
	end := day(0) + "T00:00:00Z"
	future := time.Now().AddDate(0, 0, 3).UTC().Format("2006-01-02") + "T00:00:00Z"
	for _, tc := range []struct {
		name, token, path string
		status            int
		code, live        string
		source            string
	}{
		{"species", k1, rangePath("9", ok, end, "", ""), 400, "V066", "31235", "path:speciesId"},
		{"species not a number", k1, rangePath("Sheep", ok, end, "", ""), 400, "V066", "31235", "path:speciesId"},
		{"no start", k1, rangePath("1", "", end, "", ""), 400, "V061", "31230", "path:startTransferDate"},
		{"no end", k1, rangePath("1", ok, "null", "", ""), 400, "V061", "31230", "path:endTransferDate"},
		{"order", k1, rangePath("1", end, ok, "", ""), 400, "V062", "31231", "path:startTransferDate"},
		{"future", k1, rangePath("1", future, future[:10]+"T12:00:00Z", "", ""), 400, "V063", "31232", "path:startTransferDate"},
		{"a year", k1, rangePath("1", "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "", ""), 400, "V064", "31233", "path:endTransferDate"},
		{"no holding for the inspector", insp, rangePath("1", ok, end, "null", "''"), 400, "V065", "31234", "path:departureHolding"},
		{"no holding for a keeper", k1, rangePath("1", ok, end, "", ""), 400, "V065", "31234", "path:departureHolding"},
		{"not a CPH", k1, rangePath("1", ok, end, "01-100", ""), 400, "V060", "31200", "path:departureHolding"},
		{"not registered", k1, rangePath("1", ok, end, "", "99%2F999%2F9999"), 400, "V060", "31200", "path:destinationHolding"},
		{"bad date", k1, rangePath("1", "yesterday", end, "", ""), 400, "S008", "", "path:startTransferDate"},
		// ":" written %3b, as the movements document tells callers: read, then held to the order rule.
		{"order, %3b", k1, rangePath("1", strings.ReplaceAll(end, ":", "%3b"), strings.ReplaceAll(ok, ":", "%3B"), "", ""), 400, "V062", "31231", "path:startTransferDate"},
		{"another keeper's holding", k1, rangePath("1", ok, end, farm2Path, ""), 403, "A002", "", ""},
	} {
		res := b.do(http.MethodGet, tc.path, tc.token, nil)
		codes := errorCodes(res.body)
		if res.status != tc.status || !(slices.Contains(codes, tc.code) || tc.live != "" && slices.Contains(codes, tc.live)) {
			t.Errorf("%s: %s = %d %s, want %d with %s", tc.name, tc.path, res.status, res.body, tc.status, tc.code)
		}
		if tc.source != "" && !strings.Contains(string(res.body), tc.source[len("path:"):]) {
			t.Errorf("%s: the error does not name %s: %s", tc.name, tc.source, res.body)
		}
		if tc.name == "not registered" && !strings.Contains(string(res.body), "Holding 99/999/9999 is not") {
			t.Errorf("%s: the message does not name the holding as written: %s", tc.name, res.body)
		}
		if res.status == http.StatusForbidden && !strings.Contains(string(res.body), `"value":"01/100/0264"`) {
			t.Errorf("%s: the refusal does not name the holding as a CPH: %s", tc.name, res.body)
		}
	}
	plain := b.do(http.MethodGet, rangePath("1", ok, end, farm1Path, ""), k1, nil)
	encoded := b.do(http.MethodGet, rangePath("1", strings.ReplaceAll(ok, ":", "%3b"), strings.ReplaceAll(end, ":", "%3b"), farm1Path, ""), k1, nil)
	if plain.status != http.StatusOK || encoded.status != http.StatusOK || string(plain.body) != string(encoded.body) {
		t.Errorf("a range with \":\" written %%3b = %d %s, want what the plain one answers: %d %s", encoded.status, encoded.body, plain.status, plain.body)
	}
}

// TestServiceRoot: the service document at /v1/ (and /v1.0/), $metadata
// declaring the approved movements, the functions and the capabilities,
// and any /v1 route under /v1.0.
func TestServiceRoot(t *testing.T) {
	t.Parallel()
	s := storetest.OpenSQLite(t)
	b := setup(t, s, api.Config{})
	k1 := b.token("keeper1")
	for _, path := range []string{"/v1/", "/v1.0/", "/v1", "/v1.0"} {
		res := b.get(path, k1)
		var doc struct {
			Context string `json:"@odata.context"`
			Value   []struct{ Name, Kind, URL string }
		}
		res.decode(&doc)
		var names []string
		for _, v := range doc.Value {
			if v.Kind != "EntitySet" || v.URL != v.Name {
				t.Errorf("%s: entry %+v", path, v)
			}
			names = append(names, v.Name)
		}
		want := []string{"ApprovedMovements", "CorrectTransferRequests", "ReviewHoldingMovementRequests", "TransferRequests", "UndoRequests"}
		if res.status != 200 || !strings.HasSuffix(doc.Context, "/v1/$metadata") || !slices.Equal(names, want) {
			t.Errorf("GET %s = %d %s", path, res.status, res.body)
		}
	}
	// The service document takes $format=json alone; any other option is
	// refused, naming the one it takes, rather than ignored.
	if res := b.get("/v1/?$format=json", k1); res.status != http.StatusOK {
		t.Errorf("the service document with $format=json = %d %s", res.status, res.body)
	}
	for _, q := range []string{"$search=x", "$apply=x", "$top=abc", "$format=xml"} {
		res := b.get("/v1/?"+q, k1)
		if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), "$format") {
			t.Errorf("the service document with %s = %d %s, want 400 naming $format", q, res.status, res.body)
		}
	}
	meta := b.get("/v1.0/$metadata", k1)
	for _, want := range []string{
		`<EntitySet Name="ApprovedMovements" EntityType="Drover.ApprovedMovement">`,
		`<PropertyRef Name="id"></PropertyRef>`, `<PropertyRef Name="recordedBy"></PropertyRef>`,
		`<Function Name="ReviewBySpecies" IsBound="true">`, `<Function Name="ByTransferDateRange" IsBound="true">`,
		`<Parameter Name="startTransferDate" Type="Edm.DateTimeOffset" Nullable="false">`,
		`<Annotation Term="Org.OData.Capabilities.V1.TopSupported" Bool="true">`,
		`<PropertyValue Property="Countable" Bool="true">`, `<PropertyValue Property="MaxLevels" Int="2">`,
		`<edmx:Include Namespace="Org.OData.Capabilities.V1" Alias="Capabilities">`,
	} {
		if !strings.Contains(string(meta.body), want) {
			t.Errorf("$metadata lacks %s", want)
		}
	}
	if res := b.get("/v1.0/TransferRequests", k1); res.status != 200 || !strings.Contains(string(res.body), `"value":[]`) {
		t.Errorf("GET /v1.0/TransferRequests = %d %s", res.status, res.body)
	}
	if res := b.do(http.MethodGet, "/v1.01/TransferRequests", k1, nil); res.status != 404 {
		t.Errorf("GET /v1.01/TransferRequests = %d, want 404", res.status)
	}
}

// TestApprovedDepartureAsConsented: when the source keeper consents to an
// on-move naming a sheep that has left their farm since, the sheep stays
// where it is (CompletedWarning), and the Departure record lists what the
// departure confirmed, as the Destination record lists what arrived.
func TestApprovedDepartureAsConsented(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		on := b.submit(k2, "TransferRequests", transfer(day(-2), farm1, farm2, farm2, sheep("130181", 6, 7), nil))
		gone := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, "01/100/0259", farm1, sheep("130181", 7), nil))
		if !on.applied() || !gone.applied() {
			t.Fatalf("on-move %+v, the sheep gone since %+v", on, gone)
		}
		consent := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 2))
		if consent.RequestStatus != "CompletedWarning" {
			t.Fatalf("keeper1's consent: %s %+v %+v", consent.RequestStatus, consent.Errors, consent.Warnings)
		}
		for _, side := range []string{"Departure", "Destination"} {
			token := map[string]string{"Departure": k1, "Destination": k2}[side]
			var one approvedItem
			b.do(http.MethodGet, fmt.Sprintf("/v1/ApprovedMovements(%d,%s)", on.RequestID, side), token, nil).decode(&one)
			if one.AnimalTotal != 1 || len(one.Devices) != 1 || one.Devices[0].TagNumber != "UK0130181 00006" {
				t.Errorf("the %s record: animalTotal %d, devices %+v; want the one sheep that left", side, one.AnimalTotal, one.Devices)
			}
		}
	})
}
