package api

import (
	"encoding/json"
	"testing"

	"github.com/drover-registry/drover/internal/odata"
)

// TestAppendRecordAsEncodingJSON holds the hand-written record encoder to
// what encoding/json writes, cut by selectMembers, for records with
// strings that need escaping and every shape of $select and $expand.
func TestAppendRecordAsEncodingJSON(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	records := []requestRecord{
		{RequestID: 1, RequestDate: "2026-01-02T03:04:05Z", UpdatedDate: "2026-01-02T03:04:05Z", RequestStatus: "Success",
			UserName: "keeper1", Errors: []singleError{}, Warnings: []singleError{}, UndoSupported: true},
		{Context: "/v1/$metadata#TransferRequests/$entity", RequestID: 1 << 40, RequestStatus: "Fail",
			UserName: "o'brien <&> \"quoted\" \\ tab\t nul\x00 é \u2028 \xff", Errors: []singleError{{Message: "a <b> & c",
				Code: "30001", Target: "movementGroups[0]"}}, Warnings: []singleError{{Message: "w", Code: "40"}},
			IsFullUndone: true, IsContentPurged: true,
			Content:      json.RawMessage("{ \"transferDate\" : \"2026-01-02T00:00:00Z\", \"note\": \"<&>\" }"),
			MovementDate: str("2026-01-02T00:00:00Z"), Species: str("Sheep"), TrackingID: str("T-1 <x>")},
		{RequestID: 7, Errors: nil, Warnings: nil, Content: json.RawMessage(`{}`), Species: str("")},
	}
	queries := []odata.Query{
		{},
		{Expand: []string{"content"}},
		{Select: []string{"requestId"}},
		{Select: []string{"trackingId", "content", "userName"}},
		{Select: []string{"errors", "warnings", "isFullUndone"}, Expand: []string{"content"}},
		{Select: []string{"species", "movementDate", "requestStatus", "requestDate", "updatedDate", "undoSupported", "isContentPurged"}},
	}
	for i, rec := range records {
		for _, q := range queries {
			want, err := selectMembers(rec, q)
			if err != nil {
				t.Fatal(err)
			}
			wantJSON, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendRecord([]byte("prefix"), rec, q)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != "prefix"+string(wantJSON) {
				t.Errorf("record %d under select %v expand %v:\n got %s\nwant %s", i, q.Select, q.Expand, got[6:], wantJSON)
			}
		}
	}
}

// TestPageBudget holds a page to its byte budget as a listing counts it
// (each item's bytes and a comma): the first item always goes on, and an
// item that would take the page past the budget is taken off again.
func TestPageBudget(t *testing.T) {
	t.Parallel()
	item := `{"a":"0123456789"}` // 18 bytes, 19 with its comma
	for _, tc := range []struct {
		budget, items int
		cut           bool
	}{{1, 1, true}, {19, 1, true}, {37, 1, true}, {38, 2, true}, {57, 3, false}, {1 << 20, 3, false}} {
		n := int64(3)
		p := newPage("/v1/$metadata#X", &n, tc.budget)
		for range 3 {
			mark := p.open()
			p.b = append(p.b, item...)
			if !p.close(mark) {
				break
			}
		}
		body := p.end("")
		var got struct {
			Count int64             `json:"@odata.count"`
			Value []json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("budget %d: %v in %s", tc.budget, err, body)
		}
		if len(got.Value) != tc.items || p.items != tc.items || p.cut != tc.cut || got.Count != 3 {
			t.Errorf("budget %d: %d items (page says %d), cut %v; want %d, cut %v", tc.budget, len(got.Value), p.items, p.cut, tc.items, tc.cut)
		}
		p.free()
	}
}
