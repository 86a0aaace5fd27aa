package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestMovementSubmissionErrors covers every answer a submission gets at
// once, and checks that none of them stored anything.
func TestMovementSubmissionErrors(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		good := func() map[string]any { return transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil) }
		with := func(k string, v any) map[string]any { m := good(); m[k] = v; return m }
		for _, tc := range []struct {
			name   string
			token  string
			body   any
			status int
			code   string
			source string
		}{
			{"bare payload", k1, good(), 400, "S002", ""},
			{"unknown field", k1, map[string]any{"content": with("colour", "red")}, 400, "S004", "/content/colour"},
			{"wrong type", k1, map[string]any{"content": with("animalCount", "one")}, 400, "S003", "/content/animalCount"},
			{"Goat is not a species", k1, map[string]any{"content": with("species", "Goat")}, 400, "S006", "/content/species"},
			{"bad CPH", k1, map[string]any{"content": with("sourceHolding", "1/100/0257")}, 400, "S008", "/content/sourceHolding"},
			{"bad tag", k1, map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("13018", 1), nil)}, 400, "S008", "/content/movementGroups/0/devices/0/tagNumber"},
			{"rfid of another tag", k1, map[string]any{"content": transfer(day(0), farm1, farm2, farm1,
				[]map[string]any{{"tagNumber": "UK0130181 00001", "rfid": "0826013018100002"}}, nil)}, 400, "S008", "/content/movementGroups/0/devices/0/rfid"},
			{"rfid that does not read", k1, map[string]any{"content": transfer(day(0), farm1, farm2, farm1,
				[]map[string]any{{"tagNumber": "UK0130181 00001", "rfid": "zzz"}}, nil)}, 400, "S008", "/content/movementGroups/0/devices/0/rfid"},
			{"rfid of no UK tag", k1, map[string]any{"content": transfer(day(0), farm1, farm2, farm1,
				[]map[string]any{{"rfid": "0940013018100001"}}, nil)}, 400, "S008", "/content/movementGroups/0/devices/0/rfid"},
			{"date without a day", k1, map[string]any{"content": with("transferDate", "2026-11")}, 400, "S008", "/content/transferDate"},
			// Go's zero time, which was stored and then shown as no date.
			{"year 1", k1, map[string]any{"content": with("transferDate", "0001-01-01")}, 400, "S008", "/content/transferDate"},
			{"sold in 1899", k1, map[string]any{"content": with("saleDate", "1899-12-31")}, 400, "S008", "/content/saleDate"},
			{"born on 30 February", k1, map[string]any{"content": with("movementGroups", []map[string]any{{"devicesWithDetail": []map[string]any{
				{"tagNumber": "UK0130181 00001", "dateOfBirth": "2026-02-30"}}}})}, 400, "S008", "/content/movementGroups/0/devicesWithDetail/0/dateOfBirth"},
			{"trackingId too long", k1, map[string]any{"content": with("trackingId", strings.Repeat("x", 37))}, 400, "S007", "/content/trackingId"},
			{"not your holding", k2, map[string]any{"content": good()}, 403, "A002", "/content/userHolding"},
			{"userHolding not in the move", k1, map[string]any{"content": with("userHolding", "01/100/0253")}, 400, "V002", "/content/userHolding"},
			{"same holding both ends", k1, map[string]any{"content": with("destinationHolding", farm1)}, 400, "V012", "/content/destinationHolding"},
			{"malformed JSON", k1, `{"content": {`, 400, "S005", ""},
		} {
			var res response
			if raw, ok := tc.body.(string); ok {
				res = b.do(http.MethodPost, "/v1/TransferRequests", tc.token, strings.NewReader(raw), "Content-Type", "application/json")
			} else {
				res = b.post(tc.token, "TransferRequests", tc.body)
			}
			if res.status != tc.status {
				t.Errorf("%s: status %d, want %d: %s", tc.name, res.status, tc.status, res.body)
				continue
			}
			p := res.problem()
			found := false
			for _, e := range p.Errors {
				if e.Code == tc.code && (tc.source == "" || e.Source == tc.source) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: errors %+v, want %s at %q", tc.name, p.Errors, tc.code, tc.source)
			}
		}
		var list struct{ Value []any }
		b.do(http.MethodGet, "/v1/TransferRequests", b.token("inspector"), nil).decode(&list)
		if len(list.Value) != 0 {
			t.Errorf("refused submissions left %d requests behind", len(list.Value))
		}

		// A repeated trackingId is refused (per user: keeper2 may use it).
		tracked := with("trackingId", "farm-app-0001")
		if res := b.post(k1, "TransferRequests", map[string]any{"content": tracked}); res.status != http.StatusCreated {
			t.Fatalf("first tracked request: %d %s", res.status, res.body)
		}
		res := b.post(k1, "TransferRequests", map[string]any{"content": tracked})
		if res.status != http.StatusBadRequest || res.problem().Errors[0].Code != "V001" {
			t.Errorf("repeated trackingId: %d %s", res.status, res.body)
		}
		other := transfer(day(0), farm2, farm1, farm2, sheep("130186", 1), nil)
		other["trackingId"] = "farm-app-0001"
		if res := b.post(k2, "TransferRequests", map[string]any{"content": other}); res.status != http.StatusCreated {
			t.Errorf("another user's same trackingId: %d %s", res.status, res.body)
		}

		// Look-ups: unknown id 404, another keeper's request 403, wrong collection 404.
		var mine record
		b.post(k1, "TransferRequests", map[string]any{"content": good()}).decode(&mine)
		for _, tc := range []struct {
			path, token string
			status      int
		}{
			{"/v1/TransferRequests(999999)", k1, 404},
			{fmt.Sprintf("/v1/UndoRequests(%d)", mine.RequestID), k1, 404},
			{fmt.Sprintf("/v1/TransferRequests(%d)", mine.RequestID), b.token("inspector"), 200},
			{"/v1/TransferRequests(abc)", k1, 400},
		} {
			if res := b.do(http.MethodGet, tc.path, tc.token, nil); res.status != tc.status {
				t.Errorf("GET %s: %d, want %d: %s", tc.path, res.status, tc.status, res.body)
			}
		}
		// keeper2 may see it (it concerns farm2); a move between keeper1's own holdings is not keeper2's business,
		// and answers as an id not in use (TestNotYoursIsNotThere).
		var own record
		b.post(k1, "TransferRequests", map[string]any{"content": transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 9), nil)}).decode(&own)
		if res := b.do(http.MethodGet, fmt.Sprintf("/v1/TransferRequests(%d)", own.RequestID), k2, nil); res.status != http.StatusNotFound {
			t.Errorf("keeper2 reading keeper1's own move: %d", res.status)
		}

		// Review and undo refusals at once.
		if res := b.post(k1, "ReviewHoldingMovementRequests", map[string]any{"content": map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": mine.RequestID, "isAccepted": true, "arrivalDate": day(0), "animalTotal": 1}}}); res.status != http.StatusForbidden {
			t.Errorf("keeper1 reviewing for farm2: %d", res.status)
		}
		if res := b.post(k1, "UndoRequests", map[string]any{"content": map[string]any{}}); res.status != http.StatusBadRequest {
			t.Errorf("undo without an id: %d %s", res.status, res.body)
		}
	})
}

// TestCorrelationReplay checks that a retried POST (same correlation id,
// same body) gets the first answer and stores nothing, and that reusing
// the id for another body is refused.
func TestCorrelationReplay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		body := map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil)}
		first := b.post(k1, "TransferRequests", body, "X-Correlation-ID", "retry-me-1")
		again := b.post(k1, "TransferRequests", body, "X-Correlation-ID", "retry-me-1")
		if first.status != http.StatusCreated || again.status != http.StatusCreated || string(first.body) != string(again.body) {
			t.Fatalf("replay: %d %s / %d %s", first.status, first.body, again.status, again.body)
		}
		if f, a := first.header.Values("Idempotent-Replayed"), again.header.Get("Idempotent-Replayed"); len(f) != 0 || a != "true" {
			t.Errorf("Idempotent-Replayed: first answer %q, replay %q; want none, then true", f, a)
		}
		other := map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130181", 2), nil)}
		res := b.post(k1, "TransferRequests", other, "X-Correlation-ID", "retry-me-1")
		if res.status != http.StatusBadRequest || res.problem().Errors[0].Code != "V004" || res.problem().Errors[0].Source != "header:X-Correlation-ID" {
			t.Errorf("same id, other body: %d %s", res.status, res.body)
		}
		// A reply kept before migration 00008 has no request id beside it:
		// the replay's Location is read from the kept body.
		var rec record
		first.decode(&rec)
		data, _ := json.Marshal(body)
		sum := sha256.Sum256([]byte("POST /v1/TransferRequests\n" + string(data)))
		err := s.InTx(t.Context(), func(c context.Context, tx store.Tx) error {
			return tx.SaveReply(c, store.Reply{UserName: "keeper1", CorrelationID: "kept-before-00008",
				RequestHash: hex.EncodeToString(sum[:]), Status: http.StatusCreated, Body: first.body, CreatedAt: time.Now()})
		})
		if err != nil {
			t.Fatal(err)
		}
		old := b.post(k1, "TransferRequests", body, "X-Correlation-ID", "kept-before-00008")
		want := fmt.Sprintf("/v1/TransferRequests(%d)", rec.RequestID)
		if old.status != http.StatusCreated || string(old.body) != string(first.body) || !strings.HasSuffix(old.header.Get("Location"), want) {
			t.Errorf("replay of a reply kept before 00008: %d, Location %q (want …%s), %s", old.status, old.header.Get("Location"), want, old.body)
		}
		// Another user's identical correlation id is theirs alone.
		k2body := map[string]any{"content": transfer(day(0), farm2, farm1, farm2, sheep("130186", 1), nil)}
		if res := b.post(b.token("keeper2"), "TransferRequests", k2body, "X-Correlation-ID", "retry-me-1"); res.status != http.StatusCreated {
			t.Errorf("keeper2 with keeper1's correlation id: %d %s", res.status, res.body)
		}
		var list struct{ Value []record }
		b.do(http.MethodGet, "/v1/TransferRequests", k1, nil).decode(&list)
		n := 0
		for _, r := range list.Value {
			if r.UserName == "keeper1" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("keeper1 has %d requests after a replay, want 1", n)
		}
		// A UUID is the same id in either case: sent back as LI-Correlation-Id
		// answered it (lower case), the retry is replayed.
		const upper = "7D11BDEB-A6FD-40BA-A765-347B5FFEED49"
		k3body := map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130181", 3), nil)}
		up := b.post(k1, "TransferRequests", k3body, "LI-Correlation-Id", upper)
		low := b.post(k1, "TransferRequests", k3body, "X-Correlation-ID", up.header.Get("LI-Correlation-Id"))
		if up.status != http.StatusCreated || up.header.Get("LI-Correlation-Id") != strings.ToLower(upper) ||
			low.header.Get("Idempotent-Replayed") != "true" || string(low.body) != string(up.body) {
			t.Errorf("a UUID sent back in lower case: %d %q, then %d replayed %q", up.status, up.header.Get("LI-Correlation-Id"),
				low.status, low.header.Get("Idempotent-Replayed"))
		}
		// Any other form of a UUID is answered in that form too, and so
		// keyed as it: sent back as answered, the retry is replayed.
		for i, form := range []string{"{0b7e1f5c-4a2d-4c1e-9f3a-1d2c3b4a5e6f}", "urn:uuid:1c8f2e6d-5b3e-4d2f-8a4b-2e3d4c5b6a7f",
			"2d903f7e6c4f4e30b15c3f4e5d6c7b8a"} {
			body := map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130181", 4+i), nil)}
			sent := b.post(k1, "TransferRequests", body, "X-Correlation-ID", form)
			li := sent.header.Get("LI-Correlation-Id")
			back := b.post(k1, "TransferRequests", body, "LI-Correlation-Id", li)
			if sent.status != http.StatusCreated || back.header.Get("Idempotent-Replayed") != "true" || string(back.body) != string(sent.body) {
				t.Errorf("%s, sent back as LI-Correlation-Id %s: %d, then %d replayed %q %s", form, li, sent.status, back.status,
					back.header.Get("Idempotent-Replayed"), back.body)
			}
		}
		// Sent as LI-Correlation-Id, the refusal names that header.
		k2 := b.token("keeper2")
		b.post(k2, "TransferRequests", k2body, "LI-Correlation-Id", "retry-me-li")
		k2other := map[string]any{"content": transfer(day(0), farm2, farm1, farm2, sheep("130186", 2), nil)}
		if res := b.post(k2, "TransferRequests", k2other, "LI-Correlation-Id", "retry-me-li"); res.status != http.StatusBadRequest ||
			res.problem().Errors[0].Source != "header:LI-Correlation-Id" {
			t.Errorf("same LI id, other body: %d %s", res.status, res.body)
		}
	})
}

// TestODataPaging checks $top, $skip, $filter and @odata.nextLink.
func TestODataPaging(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{MaxPage: 4})
		k1 := b.token("keeper1")
		var ids []int64
		for i := range 10 {
			date := day(-10 + i)
			var rec record
			res := b.post(k1, "TransferRequests", map[string]any{"content": transfer(date, farm1, farm2, farm1, sheep("130182", i+1), nil)})
			res.decode(&rec)
			ids = append(ids, rec.RequestID)
		}
		type page struct {
			Value    []record
			NextLink string `json:"@odata.nextLink"`
			Context  string `json:"@odata.context"`
		}
		get := func(path string) page {
			t.Helper()
			var p page
			res := b.do(http.MethodGet, path, k1, nil)
			if res.status != 200 {
				t.Fatalf("GET %s = %d %s", path, res.status, res.body)
			}
			res.decode(&p)
			if p.Context == "" {
				t.Errorf("GET %s: no @odata.context", path)
			}
			return p
		}
		idsOf := func(p page) (out []int64) {
			for _, r := range p.Value {
				out = append(out, r.RequestID)
			}
			return out
		}
		// Following nextLink walks every request once, in order.
		var walked []int64
		p := get("/v1/TransferRequests")
		for {
			walked = append(walked, idsOf(p)...)
			if p.NextLink == "" {
				break
			}
			p = get(strings.TrimPrefix(p.NextLink, b.url))
		}
		if fmt.Sprint(walked) != fmt.Sprint(ids) {
			t.Errorf("walked %v, want %v", walked, ids)
		}
		// $top=3&$skip=5 gives results 6 to 8, and no nextLink.
		p = get("/v1/TransferRequests?$top=3&$skip=5")
		if fmt.Sprint(idsOf(p)) != fmt.Sprint(ids[5:8]) || p.NextLink != "" {
			t.Errorf("$top=3&$skip=5 = %v next %q, want %v", idsOf(p), p.NextLink, ids[5:8])
		}
		// $filter on movementDate: the document's form, with ; for : as %3b gives.
		from, to := day(-7)+"T00%3b00%3b00Z", day(-5)+"T23:59:59Z"
		p = get("/v1/TransferRequests?$filter=movementDate%20ge%20" + from + "%20and%20movementDate%20le%20" + to)
		if fmt.Sprint(idsOf(p)) != fmt.Sprint(ids[3:6]) {
			t.Errorf("filtered = %v, want %v", idsOf(p), ids[3:6])
		}
		for _, tc := range []struct{ query, code string }{
			{"$top=5", "S017"},
			{"$filter=movementDate%20ge%20" + day(0), "S016"},
			{"$filter=colour%20eq%20'red'", "S015"},
			{"$orderby=colour", "S009"},
			{"$select=colour", "S009"},
			{"$expand=content/movementGroups/devices", "S009"},
		} {
			res := b.do(http.MethodGet, "/v1/TransferRequests?"+tc.query, k1, nil)
			if res.status != http.StatusBadRequest {
				t.Errorf("%s: %d, want 400", tc.query, res.status)
				continue
			}
			if c := res.problem().Errors[0].Code; c != tc.code {
				t.Errorf("%s: code %s, want %s", tc.query, c, tc.code)
			}
		}
	})
}

// TestEmptyTrackingIDIsNone: the live schema sets trackingId no least
// length, so "" is sent by clients that have none; it is none, as null is,
// and two such requests are not one trackingId used twice.
func TestEmptyTrackingIDIsNone(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	for i := 1; i <= 2; i++ {
		move := transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", i), nil)
		move["trackingId"] = ""
		rec := b.submit(k1, "TransferRequests", move)
		if !rec.applied() || rec.TrackingID != "" {
			t.Errorf("transfer %d with an empty trackingId: %s %+v, trackingId %q", i, rec.RequestStatus, rec.Errors, rec.TrackingID)
		}
	}
}
