package api_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// liveBody is a movements error body: the live error beside the errors list.
type liveBody struct {
	Error struct {
		Code, Message, Target string
		Details               []struct{ Code, Message, Target string }
	}
	Errors []struct{ Code, Source string }
}

// TestLiveErrorBody: a 4xx of the movements interface is the live error
// (CLAErrorResponse, OData's error format, as application/json) with the
// interface document's errors beside it and nothing else (a 404 adds the
// problem members the live definition declares for it), under the live
// catalogue's codes, naming the field in target; the registration
// interface and the token endpoint keep their problem bodies.
func TestLiveErrorBody(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	move := transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil)
	move["colour"] = "red"
	tests := []struct {
		name, method, path string
		body               any
		code, target       string // the live error's
		drover             string // the problem's first code
	}{
		{"a property the payload does not have", http.MethodPost, "/v1/TransferRequests", map[string]any{"content": move}, "31000", "content.colour", "S004"},
		{"a query option", http.MethodGet, "/v1/UndoRequests?$top=-1", nil, "31003", "$top", "S008"},
		{"$filter", http.MethodGet, "/v1/CorrectTransferRequests?$filter=" + url.QueryEscape("requestStatus eq 'Sucess'"), nil, "31003", "$filter", "S016"},
		{"a path parameter", http.MethodGet, "/v1/TransferRequests(0)", nil, "30059", "requestId", "S008"},
	}
	for _, tc := range tests {
		var res response
		if tc.body != nil {
			res = b.post(k1, strings.TrimPrefix(tc.path, "/v1/"), tc.body)
		} else {
			res = b.do(tc.method, tc.path, k1, nil)
		}
		p := res.problem()
		var got liveBody
		res.decode(&got)
		if members := bodyMembers(t, res); res.header.Get("Content-Type") != "application/json" || members != "error errors" {
			t.Errorf("%s: %s with members %q; want application/json with error and errors alone", tc.name, res.header.Get("Content-Type"), members)
		}
		if res.status != http.StatusBadRequest || got.Error.Code != tc.code || got.Error.Target != tc.target || got.Error.Message != p.Detail ||
			len(got.Error.Details) != len(p.Errors) || got.Error.Details[0].Code != tc.code || got.Error.Details[0].Target != tc.target ||
			p.Errors[0].Code != tc.drover {
			t.Errorf("%s: %d %s; want 400, error %s at %s beside errors %s", tc.name, res.status, res.body, tc.code, tc.target, tc.drover)
		}
	}
	// A trackingId used before: the live code 25, at content.trackingId.
	move = transfer(day(0), farm1, farm2, farm1, sheep("130181", 2), nil)
	move["trackingId"] = "live-error-1"
	b.submit(k1, "TransferRequests", move)
	res := b.post(k1, "TransferRequests", map[string]any{"content": move})
	var got liveBody
	if res.decode(&got); res.status != http.StatusBadRequest || got.Error.Code != "25" || got.Error.Target != "content.trackingId" {
		t.Errorf("a trackingId again: %d %s; want 400 with 25 at content.trackingId", res.status, res.body)
	}
	// A request that does not exist: the live ProblemDetails members too.
	res = b.do(http.MethodGet, "/v1.0/UndoRequests(999)", k1, nil)
	if p := res.problem(); res.status != http.StatusNotFound || bodyMembers(t, res) != "detail error errors status title type" ||
		p.Live.Code != "R001" || p.Live.Target != "requestId" || p.Errors[0].Source != "path:requestId" {
		t.Errorf("GET of no request = %d %s; want 404 with the problem members, error R001 at requestId and errors", res.status, res.body)
	}
	// The token endpoint keeps the problem with OAuth's error.
	res = b.do(http.MethodPost, "/oauth2/token", "", strings.NewReader("grant_type=password&username=keeper1&password=wrong"),
		"Content-Type", "application/x-www-form-urlencoded")
	if res.problem(); res.status != http.StatusBadRequest || !strings.Contains(string(res.body), `"error":"invalid_grant"`) {
		t.Errorf("a refused token = %d %s; want the problem with error invalid_grant", res.status, res.body)
	}
	// The registration interface keeps its own body.
	res = b.do(http.MethodPost, "/v1/animals", k1, strings.NewReader(`{}`), "Content-Type", "application/json")
	if res.problem(); res.status != http.StatusBadRequest || strings.Contains(string(res.body), `"error"`) {
		t.Errorf("a registration 400 = %d %s; want the problem alone", res.status, res.body)
	}
}

// TestLiveStatusFilter: $filter compares requestStatus with the live
// values, and reads Failed, the old name of Fail, as Fail.
func TestLiveStatusFilter(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		ok := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 1), nil))
		bad := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0258", farm1, sheep("130185", 1), nil))
		late := b.submit(k1, "TransferRequests", transfer(day(-10), farm1, "01/100/0258", farm1, sheep("130181", 2), nil))
		if ok.RequestStatus != "Success" || bad.RequestStatus != "Fail" || late.RequestStatus != "CompletedWarning" {
			t.Fatalf("statuses %s %s %s, want Success Fail CompletedWarning", ok.RequestStatus, bad.RequestStatus, late.RequestStatus)
		}
		for status, want := range map[string][]int64{
			"Success": {ok.RequestID}, "Fail": {bad.RequestID}, "Failed": {bad.RequestID},
			"CompletedWarning": {late.RequestID}, "QueueFail": nil, "Rejected": nil,
		} {
			res := b.do(http.MethodGet, "/v1/TransferRequests?$filter="+url.QueryEscape(fmt.Sprintf("requestStatus eq '%s'", status)), k1, nil)
			var page struct{ Value []record }
			res.decode(&page)
			var got []int64
			for _, r := range page.Value {
				got = append(got, r.RequestID)
			}
			if res.status != http.StatusOK || !slices.Equal(got, want) {
				t.Errorf("requestStatus eq '%s': %d %v, want %v", status, res.status, got, want)
			}
		}
		// The record is the live one: a warning's code and target.
		want := []struct{ Code, Message, Target string }{{"W002", late.Warnings[0].Message, "content.transferDate"}}
		if diff := cmp.Diff(want, late.Warnings); diff != "" {
			t.Errorf("warnings (-want +got):\n%s", diff)
		}
	})
}

// bodyMembers is the sorted names of the members of a JSON object body,
// space-separated.
func bodyMembers(t *testing.T, res response) string {
	t.Helper()
	var m map[string]json.RawMessage
	res.decode(&m)
	return strings.Join(slices.Sorted(maps.Keys(m)), " ")
}
