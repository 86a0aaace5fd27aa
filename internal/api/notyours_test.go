package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// sameAnswer fails unless two answers are the same status, media type and
// body, byte for byte, once its times and correlation ids are removed and
// each names its own identifiers (pair[0] in a, pair[1] in b) as ID.
func sameAnswer(t *testing.T, what string, a, b response, ids ...[2]string) {
	t.Helper()
	norm := func(r response, side int) string {
		body := timesAndUUIDs.ReplaceAllString(string(r.body), "X")
		for _, pair := range ids {
			body = regexp.MustCompile(`\b`+regexp.QuoteMeta(pair[side])+`\b`).ReplaceAllString(body, "ID")
		}
		return fmt.Sprintf("%d %s\n%s", r.status, r.header.Get("Content-Type"), body)
	}
	if x, y := norm(a, 0), norm(b, 1); x != y {
		t.Errorf("%s: the answers differ:\n%s\n----\n%s", what, x, y)
	}
}

var timesAndUUIDs = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// TestAnotherKeepersAnimalIsNotThere: a keeper asking for another
// keeper's animal — by GET, or naming it as the dam of a calf — gets the
// very answer given for a tag no animal wears; as a sire it is passed over
// as an unregistered one is. Its keeper and the inspector still read it.
func TestAnotherKeepersAnimalIsNotThere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2, inspector := b.token("keeper1"), b.token("keeper2"), b.token("inspector")
		unused := func(herd string, n int) string { return fmt.Sprintf("UK%s%s%05d", herd, checkDigit(t, herd, n), n) }
		for _, pair := range [][2]string{
			{"UK442501300001", unused("442501", 149)}, // a cow of keeper1's herd, a number issued to it but not registered
			{"UK0130181 00001", "UK0130181 00099"},    // a sheep of keeper1's flock, a number never issued
			{"UK442501300001", unused("442502", 149)}, // … of keeper2's own herd
			{"UK013018100002", "UK013018600099"},      // written without the space
		} {
			get := func(id string) response { return b.do(http.MethodGet, "/v1/animals/"+url.PathEscape(id), k2, nil) }
			theirs, none := get(pair[0]), get(pair[1])
			if theirs.status != http.StatusNotFound {
				t.Errorf("keeper2 GET another keeper's %s: %d, want 404", pair[0], theirs.status)
			}
			sameAnswer(t, "GET "+pair[0]+" and "+pair[1], theirs, none, pair)
			for who, tok := range map[string]string{"keeper1": k1, "inspector": inspector} {
				if res := b.do(http.MethodGet, "/v1/animals/"+url.PathEscape(pair[0]), tok, nil); res.status != http.StatusOK {
					t.Errorf("%s GET %s: %d, want 200", who, pair[0], res.status)
				}
			}
		}

		// A calf of keeper2's herd on keeper2's farm, its dam keeper1's
		// cow, or a cow never registered.
		calf2 := func(n int, dam string) map[string]any {
			c := calf(unused("442502", n), dam, day(-3))
			site := map[string]any{"identifiers": []map[string]any{{"identifier": farm2, "type": "holdingNumber"}}}
			c["birth"].(map[string]any)["site"], c["registration"].(map[string]any)["site"] = site, site
			return c
		}
		theirs, none := b.register(k2, calf2(101, "UK442501300001")), b.register(k2, calf2(102, unused("442501", 149)))
		if theirs.status != http.StatusBadRequest {
			t.Errorf("a calf of another keeper's cow: %d %s, want 400", theirs.status, theirs.body)
		}
		sameAnswer(t, "dams", theirs, none, [2]string{"UK442501300001", unused("442501", 149)},
			[2]string{unused("442502", 101), unused("442502", 102)})

		// As a sire, another keeper's cow is not found to be female.
		for n, sire := range map[int]string{103: "UK442501300001", 104: unused("442501", 149)} {
			c := calf2(n, "UK442502100001")
			c["registration"].(map[string]any)["sire"] = map[string]any{"identifier": sire}
			if res := b.register(k2, c); res.status != http.StatusOK {
				t.Errorf("a calf sired by %s: %d %s, want 200", sire, res.status, res.body)
			}
		}
	})
}

// TestNotYoursWritesAreNotThere: an undo, correction or review naming a
// request its sender may not see (keeper3's, of keeper1's requests) is
// answered as one naming an id not in use: the same 400 with V024 (the
// live 403, 4075, 21373, immediate errors in its catalogue), byte for
// byte but for the ids, and nothing is stored. A keeper who may see the
// request (keeper2, of a transfer to farm2) is still told why not.
func TestNotYoursWritesAreNotThere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		f := newFixture(b)
		k3 := b.token("keeper3")
		const unused = 999999
		for _, tc := range []struct {
			collection, code string
			content          func(target int64) map[string]any
			target           int64
		}{
			{"UndoRequests", "403", func(id int64) map[string]any { return map[string]any{"requestToBeUndone_ID": id} }, f.toUndo.RequestID},
			{"CorrectTransferRequests", "4075", func(id int64) map[string]any {
				return with(transfer(day(0), strangerCPH, farm2, strangerCPH, sheep("130181", 1), nil), "requestToBeUndone_ID", id)
			}, f.correction.RequestID},
			{"ReviewHoldingMovementRequests", "21373", func(id int64) map[string]any {
				return map[string]any{"holding": strangerCPH, "reviewMovement": map[string]any{"requestId": id, "isAccepted": true, "arrivalDate": day(0)}}
			}, f.correction.RequestID},
		} {
			post := func(target int64) response {
				res := b.post(k3, tc.collection, map[string]any{"content": tc.content(target)})
				if _, code, _ := liveRefusal(res); res.status != http.StatusBadRequest || code != tc.code {
					t.Errorf("keeper3 POST %s naming %d: %d %s; want 400 with %s", tc.collection, target, res.status, res.body, tc.code)
				}
				return res
			}
			theirs, none := post(tc.target), post(unused)
			sameAnswer(t, tc.collection+" answered", theirs, none, [2]string{fmt.Sprint(tc.target), fmt.Sprint(unused)})
			var list struct{ Value []record }
			b.do(http.MethodGet, "/v1/"+tc.collection, k3, nil).decode(&list)
			if len(list.Value) != 0 {
				t.Errorf("keeper3's %s after two refusals: %d stored, want none", tc.collection, len(list.Value))
			}
		}

		// The refusal names the member as the client sent it.
		named := with(transfer(day(0), strangerCPH, farm2, strangerCPH, sheep("130181", 1), nil), "requestToBeCorrected_ID", unused)
		res := b.post(k3, "CorrectTransferRequests", map[string]any{"content": named})
		if _, code, target := liveRefusal(res); code != "4075" || target != "content.requestToBeCorrected_ID" {
			t.Errorf("a correction naming an unused id by requestToBeCorrected_ID: %d %s", res.status, res.body)
		}

		// keeper2 may see keeper1's move to farm2: undoing it is refused
		// as not theirs to undo.
		res = b.post(f.k2, "UndoRequests", map[string]any{"content": map[string]any{"requestToBeUndone_ID": f.correction.RequestID}})
		if res.status != http.StatusForbidden {
			t.Errorf("keeper2 undoing keeper1's move to farm2: %d %s, want 403", res.status, res.body)
		}
	})
}

// TestUnseenRequestsAreNotThere: keeper1's requests about farm2 that made
// nothing keeper2 can see (a transfer that failed, one undone, one whose
// correction was undone, the undo itself, keeper1's review) are, to
// keeper2's undo, correction or review naming them, ids not in use: the
// same 400, byte for byte but for the ids.
func TestUnseenRequestsAreNotThere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		// First, so that no target is request 1, which the answers' counts would match.
		b.submit(k1, "TransferRequests", transfer(day(-1), farm1, "01/100/0258", farm1, sheep("130181", 23), nil))
		failed := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130199", 21), nil))
		withdrawn := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 22), nil))
		undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": withdrawn.RequestID})
		if failed.RequestStatus != "Fail" || !withdrawn.applied() || !undo.applied() {
			t.Fatalf("failed %s %+v, withdrawn %s, undo %s %+v", failed.RequestStatus, failed.Errors, withdrawn.RequestStatus, undo.RequestStatus, undo.Errors)
		}
		// A transfer whose correction was undone: the movement is withdrawn,
		// though only the correction is marked undone.
		corrected := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 24), nil))
		correction := b.submit(k1, "CorrectTransferRequests", with(transfer(day(-1), farm1, farm2, farm1, sheep("130181", 25), nil),
			"requestToBeUndone_ID", corrected.RequestID))
		if undone := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": correction.RequestID}); !corrected.applied() ||
			!correction.applied() || !undone.applied() {
			t.Fatalf("corrected %s, correction %s %+v, its undo %s %+v", corrected.RequestStatus, correction.RequestStatus, correction.Errors,
				undone.RequestStatus, undone.Errors)
		}
		// keeper1's consent to keeper2's on-move: keeper1's review.
		on := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 20), nil))
		consent := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 1))
		if !on.applied() || !consent.applied() {
			t.Fatalf("on-move %s %+v, consent %s %+v", on.RequestStatus, on.Errors, consent.RequestStatus, consent.Errors)
		}
		const unused = 999999
		for _, tc := range []struct {
			collection string
			content    func(target int64) map[string]any
		}{
			{"UndoRequests", func(id int64) map[string]any { return map[string]any{"requestToBeUndone_ID": id} }},
			{"CorrectTransferRequests", func(id int64) map[string]any {
				return with(transfer(day(0), farm2, farm1, farm2, sheep("130186", 1), nil), "requestToBeUndone_ID", id)
			}},
			{"ReviewHoldingMovementRequests", func(id int64) map[string]any {
				return map[string]any{"holding": farm2, "reviewMovement": map[string]any{"requestId": id, "isAccepted": false}}
			}},
		} {
			for name, target := range map[string]int64{"failed": failed.RequestID, "withdrawn": withdrawn.RequestID, "undo": undo.RequestID,
				"corrected and withdrawn": corrected.RequestID, "consent": consent.RequestID} {
				post := func(target int64) response {
					res := b.post(k2, tc.collection, map[string]any{"content": tc.content(target)})
					if res.status != http.StatusBadRequest || len(res.problem().Errors) != 1 || res.problem().Errors[0].Code != "V024" {
						t.Errorf("keeper2 POST %s naming %d: %d %s; want 400 with V024 alone", tc.collection, target, res.status, res.body)
					}
					return res
				}
				theirs, none := post(target), post(unused)
				ids := [][2]string{{fmt.Sprint(target), fmt.Sprint(unused)}}
				sameAnswer(t, tc.collection+" naming the "+name+" request", theirs, none, ids...)
			}
		}
	})
}
