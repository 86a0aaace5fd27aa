package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// Holdings of the sandbox beside farm1 and farm2.
const (
	yard1       = "01/100/0258" // keeper1's sale yard (a market), where the market lot 130191 is
	show1       = "01/100/0259" // keeper1's showground
	collection1 = "01/100/0255" // keeper1's collection centre
	common1     = "01/100/0256" // keeper1's common land
)

// awaiting is holding's Sheep review look-up as token sees it.
func (b *bundle) awaiting(token, holding string) []liveReviewItem {
	b.t.Helper()
	return b.awaitingSpecies(token, "Sheep", holding)
}

// awaitingSpecies is awaiting for another species than sheep.
func (b *bundle) awaitingSpecies(token, species, holding string) []liveReviewItem {
	b.t.Helper()
	path := "/v1/HoldingMovementForReviews/ReviewBySpecies(species=" + species + ",holding=" + url.PathEscape(holding) + ")"
	res := b.do(http.MethodGet, path, token, nil)
	if res.status != http.StatusOK {
		b.t.Fatalf("GET %s = %d %s", path, res.status, res.body)
	}
	var page struct{ Value []liveReviewItem }
	res.decode(&page)
	return page.Value
}

// listed finds request id in a review look-up.
func listed(items []liveReviewItem, id int64) (liveReviewItem, bool) {
	i := slices.IndexFunc(items, func(it liveReviewItem) bool { return it.RequestID == id })
	if i < 0 {
		return liveReviewItem{}, false
	}
	return items[i], true
}

// decide is a review of request id by holding: all accepted, or all rejected.
func decide(holding string, id int64, accept bool, animals int) map[string]any {
	rm := map[string]any{"requestId": id, "isAccepted": accept, "arrivalDate": day(-1)}
	if accept {
		rm["animalTotal"] = animals
	}
	return map[string]any{"holding": holding, "reviewMovement": rm}
}

// TestOnMoveFromAnotherKeeperAwaitsThem: keeper2 reporting sheep moved on
// from keeper1's farm moves nothing until keeper1 reviews it. Meanwhile
// the sheep stay keeper1's, who reads them (no 403) and finds the move in
// their own review look-up; accepted, the sheep are keeper2's; rejected,
// they stay where they are. Undoing keeper1's review leaves it awaiting
// keeper1 again, not keeper2.
func TestOnMoveFromAnotherKeeperAwaitsThem(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		const a, c = "UK0130181 00001", "UK0130181 00003"

		on := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 1, 2), nil))
		if !on.applied() {
			t.Fatalf("keeper2's on-move: %s %+v", on.RequestStatus, on.Errors)
		}
		b.wantOn("before keeper1's review", map[string]string{a: farm1})
		if res := b.get("/v1/animals/UK0130181%2000001", k1); res.status != http.StatusOK {
			t.Errorf("keeper1 reading their own sheep after keeper2's on-move: %d %s", res.status, res.body)
		}
		if res := b.get("/v1/animals/UK0130181%2000001", k2); res.status != http.StatusNotFound {
			t.Errorf("keeper2 reading keeper1's sheep before keeper1's review: %d, want 404 (not theirs is not there)", res.status)
		}
		history := func(when string, token string, want int) {
			t.Helper()
			if res := b.get("/v1/animals/UK0130181%2000001/history", token); res.status != want {
				t.Errorf("%s: the sheep's history = %d %s, want %d", when, res.status, res.body, want)
			}
		}
		// The on-move names the sheep but never put it on farm2: its history
		// would tell keeper2 its sex, birth and state.
		history("keeper2, before keeper1's review", k2, http.StatusNotFound)
		history("keeper1, before their review", k1, http.StatusOK)
		item, ok := listed(b.awaiting(k1, farm1), on.RequestID)
		if !ok || item.UserHolding == nil || *item.UserHolding != farm2 || *item.SourceHolding != farm1 || len(item.ReviewDevices) != 2 {
			t.Fatalf("keeper1's look-up of farm1: %+v (found %v), want the on-move reported by farm2", item, ok)
		}
		if _, ok := listed(b.awaiting(k2, farm2), on.RequestID); ok {
			t.Error("keeper2's own on-move awaits keeper2's review")
		}
		// keeper2 cannot decide it for keeper1, as farm1 or as farm2.
		for _, h := range []string{farm1, farm2} {
			res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": decide(h, on.RequestID, true, 2)})
			if res.status == http.StatusCreated {
				if rec := b.await(k2, "ReviewHoldingMovementRequests", postedID(res)); rec.applied() {
					t.Errorf("keeper2 reviewed their own on-move as %s: %+v", h, rec)
				}
			}
		}
		b.wantOn("after keeper2 tried to review it", map[string]string{a: farm1})

		review := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 2))
		if !review.applied() {
			t.Fatalf("keeper1's acceptance: %s %+v", review.RequestStatus, review.Errors)
		}
		b.wantOn("accepted by keeper1", map[string]string{a: farm2, "UK0130181 00002": farm2})
		history("keeper2, once keeper1 accepted", k2, http.StatusOK)

		undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": review.RequestID})
		if !undo.applied() {
			t.Fatalf("keeper1 undoing the review: %s %+v", undo.RequestStatus, undo.Errors)
		}
		b.wantOn("review undone", map[string]string{a: farm1})
		history("keeper2, once keeper1 undid their acceptance", k2, http.StatusNotFound)
		if _, ok := listed(b.awaiting(k1, farm1), on.RequestID); !ok {
			t.Error("after keeper1 undid the review, the on-move no longer awaits keeper1")
		}

		other := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 3), nil))
		rejected := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, other.RequestID, false, 0))
		if !other.applied() || !rejected.applied() {
			t.Fatalf("on-move %+v, rejection %+v", other, rejected)
		}
		b.wantOn("rejected by keeper1", map[string]string{c: farm1})
	})
}

// TestOnMoveNeedsNoConsentFromMarkets: animals moved on from a market,
// show or collection centre, and a keeper's own on-moves, apply at once.
func TestOnMoveNeedsNoConsentFromMarkets(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		lot := []map[string]any{{"batchNumber": "UK130181", "animalTotal": 2}}

		yard := b.submit(k2, "TransferRequests", transfer(day(-1), yard1, farm2, farm2, sheep("130191", 1), nil))
		b.wantOn("from keeper1's market", map[string]string{"UK0130191 00001": farm2})
		for _, tc := range []struct {
			name, from string
			waits      bool
		}{{"show", show1, false}, {"collection centre", collection1, false}, {"producer", farm1, true}} {
			on := b.submit(k2, "TransferRequests", transfer(day(-1), tc.from, farm2, farm2, nil, lot))
			if _, ok := listed(b.awaiting(k1, tc.from), on.RequestID); !on.applied() || ok != tc.waits {
				t.Errorf("a batch moved on from keeper1's %s: %s; awaiting keeper1: %v, want %v", tc.name, on.RequestStatus, ok, tc.waits)
			}
		}

		// keeper1's own: sheep to their common land, and back by an
		// on-move reported from farm1.
		out := b.submit(k1, "TransferRequests", transfer(day(-2), farm1, common1, farm1, sheep("130182", 1), nil))
		back := b.submit(k1, "TransferRequests", transfer(day(-1), common1, farm1, farm1, sheep("130182", 1), nil))
		if !yard.applied() || !out.applied() || !back.applied() {
			t.Fatalf("market %+v, out %+v, back %+v", yard, out, back)
		}
		b.wantOn("keeper1's own on-move", map[string]string{"UK0130182 00001": farm1})
	})
}

// TestMoveReportedByBothEnds: the second report of a move, from its other
// end, is matched to the movement the first made, applies nothing, and
// says so (W004, live 4023); the reviewer sees the match as isDuplicate
// with the second's requestId, and accepting moves the animals once. A
// report differing in an animal is not matched, and a foreign keeper's
// errors stay about the source holding alone.
func TestMoveReportedByBothEnds(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		again := func(who string, r record, first int64) {
			t.Helper()
			_, warns := r.codes()
			if r.RequestStatus != "CompletedWarning" || !slices.Equal(warns, []string{"4023"}) || r.UndoSupported ||
				!strings.Contains(r.Warnings[0].Message, "request "+fmt.Sprint(first)) {
				t.Errorf("%s's second report: %s %+v undoSupported %v, want CompletedWarning with 4023 naming request %d",
					who, r.RequestStatus, r.Warnings, r.UndoSupported, first)
			}
		}
		for _, tc := range []struct {
			name              string
			first, second     string // the tokens
			firstAt, secondAt string // their userHoldings
			reviewer          string // the token …
			holding           string // … and holding that review the first
			tag               int
		}{
			{"off-move then on-move", k1, k2, farm1, farm2, k2, farm2, 5},
			{"on-move then off-move", k2, k1, farm2, farm1, k1, farm1, 7},
		} {
			move := func(at string) map[string]any {
				return transfer(day(-1), farm1, farm2, at, sheep("130181", tc.tag, tc.tag+1),
					[]map[string]any{{"batchNumber": "UK130181", "animalTotal": 4}})
			}
			first := b.submit(tc.first, "TransferRequests", move(tc.firstAt))
			second := b.submit(tc.second, "TransferRequests", move(tc.secondAt))
			if !first.applied() {
				t.Fatalf("%s: first report %+v", tc.name, first)
			}
			again(tc.name, second, first.RequestID)
			item, ok := listed(b.awaiting(tc.reviewer, tc.holding), first.RequestID)
			if !ok || !item.IsDuplicate || !slices.Equal(item.DuplicateRequestIDs, []int64{second.RequestID}) {
				t.Errorf("%s: the look-up of %s shows %+v (found %v), want isDuplicate with [%d]", tc.name, tc.holding, item, ok, second.RequestID)
			}
			if _, ok := listed(b.awaiting(tc.reviewer, tc.holding), second.RequestID); ok {
				t.Errorf("%s: the second report awaits review too", tc.name)
			}
			// Its first report cannot be undone now: the second stands on it.
			if r := b.submit(tc.first, "UndoRequests", map[string]any{"undoRequestId": first.RequestID}); !slices.Equal(errsOf(r.codes()), []string{"14104"}) {
				t.Errorf("%s: undo of the first report, awaiting review: %s %+v, want Fail 14104", tc.name, r.RequestStatus, r.Errors)
			}
			if r := b.submit(tc.reviewer, "ReviewHoldingMovementRequests", decide(tc.holding, second.RequestID, true, 6)); r.applied() {
				t.Errorf("%s: a review of the second report applied: %+v", tc.name, r)
			}
			if r := b.submit(tc.reviewer, "ReviewHoldingMovementRequests", decide(tc.holding, first.RequestID, true, 6)); !r.applied() {
				t.Fatalf("%s: review %+v", tc.name, r)
			}
			tag := fmt.Sprintf("UK0130181 %05d", tc.tag)
			b.wantOn(tc.name, map[string]string{tag: farm2})
			// The second report made no movement to undo or correct.
			if r := b.submit(tc.second, "UndoRequests", map[string]any{"requestToBeUndone_ID": second.RequestID}); r.RequestStatus != "Fail" {
				t.Errorf("%s: undo of the second report: %+v", tc.name, r)
			}
			fix := move(tc.secondAt)
			fix["requestToBeCorrected_ID"] = second.RequestID
			if r := b.submit(tc.second, "CorrectTransferRequests", fix); r.RequestStatus != "Fail" || len(r.Errors) != 1 {
				t.Errorf("%s: correction of the second report: %+v, want Fail with one error", tc.name, r)
			}
			b.wantOn(tc.name+", after the refused undo and correction", map[string]string{tag: farm2})
		}

		// Applied at once first (from a market), then reported again by
		// the market's keeper: nothing moves again.
		on := b.submit(k2, "TransferRequests", transfer(day(-1), yard1, farm2, farm2, sheep("130191", 2), nil))
		off := b.submit(k1, "TransferRequests", transfer(day(-1), yard1, farm2, yard1, sheep("130191", 2), nil))
		again("the market's keeper", off, on.RequestID)
		if r := b.submit(k2, "UndoRequests", map[string]any{"undoRequestId": on.RequestID}); !slices.Equal(errsOf(r.codes()), []string{"14104"}) {
			t.Errorf("undo of a move its other end reported too: %s %+v, want Fail 14104", r.RequestStatus, r.Errors)
		}
		b.wantOn("after the refused undo", map[string]string{"UK0130191 00002": farm2})
		if _, ok := listed(b.awaiting(k2, farm2), off.RequestID); ok {
			t.Error("a report of a move already applied awaits review")
		}

		// Not the same animals: not matched; keeper2 learns nothing of
		// keeper1's tags (the sheep in keeper1's off-move included): the
		// report awaits keeper1, who checks its animals.
		b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 9), nil))
		more := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 9, 10), nil))
		if _, ok := listed(b.awaiting(k1, farm1), more.RequestID); !more.applied() || len(more.Warnings) != 0 || !ok {
			t.Errorf("keeper2's on-move of one more sheep: %s %+v %+v (awaiting keeper1: %v), want it to await keeper1",
				more.RequestStatus, more.Errors, more.Warnings, ok)
		}
		// Both ends reporting, the destination first, are still matched.
		first := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 11, 12), nil))
		second := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 11, 12), nil))
		again("keeper2 first, then keeper1", second, first.RequestID)
		// The first report corrected to fewer sheep is still the move both
		// reported: the correction says at once it cannot be undone.
		fewer := transfer(day(-1), farm1, farm2, farm2, sheep("130181", 11), nil)
		fewer["requestToBeCorrected_ID"] = first.RequestID
		fixed := b.submit(k2, "CorrectTransferRequests", fewer)
		if !fixed.applied() || fixed.UndoSupported {
			t.Errorf("a correction of a move both reported: %s %+v, undoSupported %v; want applied, false", fixed.RequestStatus, fixed.Errors, fixed.UndoSupported)
		}
		if r := b.submit(k2, "UndoRequests", map[string]any{"undoRequestId": fixed.RequestID}); !slices.Equal(errsOf(r.codes()), []string{"14104"}) {
			t.Errorf("undo of that correction: %s %+v, want Fail 14104", r.RequestStatus, r.Errors)
		}
		// Reviewed, then the review undone, it still says so.
		review := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, fixed.RequestID, true, 1))
		if !review.applied() {
			t.Fatalf("review of the correction: %+v", review)
		}
		if r := b.submit(k1, "UndoRequests", map[string]any{"undoRequestId": review.RequestID}); !r.applied() {
			t.Fatalf("undo of that review: %+v", r)
		}
		if again := b.await(k2, "CorrectTransferRequests", fixed.RequestID); again.UndoSupported {
			t.Error("a correction of a move both reported is undoable again once its review is undone")
		}
	})
}

// errsOf is the error codes of an answer's codes().
func errsOf(errs, _ []string) []string { return errs }

// postedID is the requestId of a submission's answer.
func postedID(res response) int64 {
	var rec record
	res.decode(&rec)
	return rec.RequestID
}

// TestReviewArrivalDate: the live catalogue forbids an arrival date where
// the departure's keeper reviews or the review rejects, so a review may
// leave it out there (the animals arrive on the transfer date); the
// destination's keeper accepting must give it, and is answered at once.
func TestReviewArrivalDate(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		undated := func(holding string, id int64, accept bool) map[string]any {
			rm := map[string]any{"requestId": id, "isAccepted": accept}
			return map[string]any{"holding": holding, "reviewMovement": rm}
		}

		// keeper2 reports an on-move from keeper1's farm; keeper1 confirms it.
		on := b.submit(k2, "TransferRequests", transfer(day(-2), farm1, farm2, farm2, sheep("130181", 5), nil))
		if rec := b.submit(k1, "ReviewHoldingMovementRequests", undated(farm1, on.RequestID, true)); !rec.applied() {
			t.Fatalf("keeper1 confirming without an arrival date: %s %+v", rec.RequestStatus, rec.Errors)
		}
		b.wantOn("confirmed by the departure's keeper", map[string]string{"UK0130181 00005": farm2})

		// keeper1 sends sheep to keeper2, who must say when they arrived.
		off := b.submit(k1, "TransferRequests", transfer(day(-2), farm1, farm2, farm1, sheep("130181", 6), nil))
		res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": undated(farm2, off.RequestID, true)})
		if p := res.problem(); res.status != http.StatusBadRequest || len(p.Errors) == 0 ||
			p.Errors[0].Code != "S002" || p.Errors[0].Source != "/content/reviewMovement/arrivalDate" {
			t.Errorf("keeper2 accepting without an arrival date: %d %s, want 400 S002 at arrivalDate", res.status, res.body)
		}
		if rec := b.submit(k2, "ReviewHoldingMovementRequests", undated(farm2, off.RequestID, false)); !rec.applied() {
			t.Fatalf("keeper2 rejecting without an arrival date: %s %+v", rec.RequestStatus, rec.Errors)
		}
		b.wantOn("rejected by the destination", map[string]string{"UK0130181 00006": farm1})
	})
}

// TestPendingMoveBringsNoStandstill: a move awaiting its destination's
// review has brought nothing yet, so it cannot put the other keeper's
// holding under standstill; once accepted, the arrival does.
func TestPendingMoveBringsNoStandstill(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		off := b.submit(k1, "TransferRequests", transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil))
		if !off.applied() {
			t.Fatalf("keeper1's move to keeper2: %s %+v", off.RequestStatus, off.Errors)
		}
		own := b.submit(k2, "TransferRequests", transfer(day(0), farm2, farm1, farm2, sheep("130186", 1), nil))
		if own.RequestStatus != "Success" || len(own.Warnings) != 0 {
			t.Errorf("keeper2's own move off, keeper1's still awaiting review: %s %+v", own.RequestStatus, own.Warnings)
		}
		accept := decide(farm2, off.RequestID, true, 1)
		accept["reviewMovement"].(map[string]any)["arrivalDate"] = day(0)
		if rec := b.submit(k2, "ReviewHoldingMovementRequests", accept); !rec.applied() {
			t.Fatalf("keeper2 accepting: %s %+v", rec.RequestStatus, rec.Errors)
		}
		after := b.submit(k2, "TransferRequests", transfer(day(0), farm2, farm1, farm2, sheep("130186", 2), nil))
		if after.RequestStatus != "CompletedWarning" || len(after.Warnings) != 1 || after.Warnings[0].Code != "W001" {
			t.Errorf("keeper2's move off after the arrival: %s %+v, want CompletedWarning with W001", after.RequestStatus, after.Warnings)
		}
	})
}

// TestKeeperReadsOnlyTheirOwnRequests: keeper1's transfer onto keeper2's
// farm is keeper1's request. keeper2 finds the move in the review look-up
// and reviews it by its requestId, but reads the request itself nowhere
// (listing, $count, by id, the review's collection for keeper1's review
// of it), as the live definition has it: "for most user roles only
// returns requests created by authenticated user". The inspector reads
// both keepers' requests.
func TestKeeperReadsOnlyTheirOwnRequests(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2, inspector := b.token("keeper1"), b.token("keeper2"), b.token("inspector")
		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1, 2), nil))
		if _, ok := listed(b.awaiting(k2, farm2), sent.RequestID); !ok {
			t.Fatalf("keeper2's look-up lacks transfer %d", sent.RequestID)
		}
		review := b.submit(k2, "ReviewHoldingMovementRequests", decide(farm2, sent.RequestID, true, 2))
		if sent.RequestStatus != "Success" || review.RequestStatus != "Success" {
			t.Fatalf("transfer %+v, review %+v", sent, review)
		}
		ids := func(token, collection string) []int64 {
			var page struct{ Value []record }
			b.do(http.MethodGet, "/v1/"+collection, token, nil).decode(&page)
			var out []int64
			for _, r := range page.Value {
				out = append(out, r.RequestID)
			}
			return out
		}
		count := func(token, collection string) string {
			return strings.TrimSpace(string(b.do(http.MethodGet, "/v1/"+collection+"/$count", token, nil).body))
		}
		for _, tc := range []struct {
			token, collection string
			id                int64
			reads             bool
		}{
			{k1, "TransferRequests", sent.RequestID, true},
			{k2, "TransferRequests", sent.RequestID, false},
			{inspector, "TransferRequests", sent.RequestID, true},
			{k2, "ReviewHoldingMovementRequests", review.RequestID, true},
			{k1, "ReviewHoldingMovementRequests", review.RequestID, false},
			{inspector, "ReviewHoldingMovementRequests", review.RequestID, true},
		} {
			got := ids(tc.token, tc.collection)
			wantCount := "0"
			if tc.reads {
				wantCount = "1"
			}
			if slices.Contains(got, tc.id) != tc.reads || count(tc.token, tc.collection) != wantCount {
				t.Errorf("%s: listed %v, $count %s; want request %d read: %v", tc.collection, got, count(tc.token, tc.collection), tc.id, tc.reads)
			}
			status := b.do(http.MethodGet, fmt.Sprintf("/v1/%s(%d)", tc.collection, tc.id), tc.token, nil).status
			if want := map[bool]int{true: http.StatusOK, false: http.StatusNotFound}[tc.reads]; status != want {
				t.Errorf("GET %s(%d) = %d, want %d", tc.collection, tc.id, status, want)
			}
		}
	})
}

// TestSourceAcceptingWhatLeftSince: keeper1 confirming keeper2's on-move
// of a sheep keeper1 has sent elsewhere since moves nothing, so the review
// fails with the reason at the tag and the movement still awaits keeper1
// (who may reject it): accepted, it was approved with no animal on it,
// and followed by traces as a way between the two holdings.
func TestSourceAcceptingWhatLeftSince(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		on := b.submit(k2, "TransferRequests", transfer(day(-1), farm1, farm2, farm2, sheep("130181", 1), nil))
		if !on.applied() {
			t.Fatalf("keeper2's on-move: %s %+v", on.RequestStatus, on.Errors)
		}
		away := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0253", farm1, sheep("130181", 1), nil))
		if !away.applied() {
			t.Fatalf("keeper1 sending the sheep to the abattoir: %s %+v", away.RequestStatus, away.Errors)
		}
		review := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, true, 1))
		if errs, _ := review.codes(); review.RequestStatus != "Fail" || !slices.Equal(errs, []string{"22039"}) {
			t.Errorf("accepting a move of a sheep gone since: %s %+v, want Fail with 22039", review.RequestStatus, review.Errors)
		}
		if _, ok := listed(b.awaiting(k1, farm1), on.RequestID); !ok {
			t.Error("after the failed review, the on-move no longer awaits keeper1")
		}
		b.wantOn("after the failed review", map[string]string{"UK0130181 00001": "01/100/0253"})
		rejected := b.submit(k1, "ReviewHoldingMovementRequests", decide(farm1, on.RequestID, false, 0))
		if !rejected.applied() {
			t.Errorf("keeper1 rejecting it then: %s %+v", rejected.RequestStatus, rejected.Errors)
		}
	})
}

// reviewOfOffMove has keeper1 move a sheep off to keeper2's farm and
// returns keeper2's token and a review accepting it, to send as it is or
// altered.
func reviewOfOffMove(t *testing.T, b *bundle) (string, map[string]any) {
	t.Helper()
	off := b.submit(b.token("keeper1"), "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1), nil))
	if !off.applied() {
		t.Fatalf("keeper1's off-move: %s %+v", off.RequestStatus, off.Errors)
	}
	return b.token("keeper2"), decide(farm2, off.RequestID, true, 1)
}

// TestReviewArrivalLaterToday: an arrival later today, given with its time,
// is refused at once, as a transfer's time is; a day alone is the job's
// to compare.
func TestReviewArrivalLaterToday(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k2, review := reviewOfOffMove(t, b)
		later := time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
		review["reviewMovement"].(map[string]any)["arrivalDate"] = later
		res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": review})
		if p := res.problem(); res.status != http.StatusBadRequest || len(p.Errors) != 1 || p.Errors[0].Code != "V019" ||
			p.Errors[0].Source != "/content/reviewMovement/arrivalDate" {
			t.Errorf("an arrival in two hours: %d %s, want 400 V019 at the arrival date", res.status, res.body)
		}
	})
}

// TestAcceptingNothingRejects: a review that says it accepts but lists
// every animal as rejected rejects the movement: no record of it
// arriving, and the sheep stays where it was.
func TestAcceptingNothingRejects(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		off := b.submit(k1, "TransferRequests", transfer(day(-2), farm1, farm2, farm1, sheep("130181", 6), nil))
		review := decide(farm2, off.RequestID, true, 0)
		review["reviewMovement"].(map[string]any)["rejectedDevices"] = []map[string]any{{"tagNumber": "UK0130181 00006"}}
		if rec := b.submit(k2, "ReviewHoldingMovementRequests", review); !off.applied() || !rec.applied() {
			t.Fatalf("transfer %+v, review %+v", off, rec)
		}
		if res := b.get(fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", off.RequestID), k2); res.status != http.StatusNotFound {
			t.Errorf("a move whose review accepted nothing, as keeper2's record: %d %s, want 404", res.status, res.body)
		}
		b.wantOn("after a review that accepted nothing", map[string]string{"UK0130181 00006": farm1})
	})
}

// TestLookUpWithoutAHolding: a keeper who names no holding in the review
// look-up (an empty holding, quoted or not, or null) is shown what awaits every holding they act
// for, as the live parameter ("required for administration users, optional
// otherwise") has it, paged as one list; the inspector must name one.
func TestLookUpWithoutAHolding(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{MaxPage: 2})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		var sent []int64
		for i := range 3 {
			r := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 11+i), nil))
			if !r.applied() {
				t.Fatalf("transfer %d: %+v", i, r)
			}
			sent = append(sent, r.RequestID)
		}
		walk := func(token, path string) []int64 { return b.walk(token, path, "requestId") }
		for _, holding := range []string{"''", "null"} {
			path := "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding=" + holding + ")"
			if got := walk(k2, path); !slices.Equal(got, sent) {
				t.Errorf("keeper2 with holding=%s: %v, want %v", holding, got, sent)
			}
			if got := walk(k1, path); len(got) != 0 {
				t.Errorf("keeper1 with holding=%s sees %v, want nothing", holding, got)
			}
			if res := b.do(http.MethodGet, path, b.token(sandbox.Inspector), nil); res.status != http.StatusBadRequest ||
				!strings.Contains(string(res.body), "holding") {
				t.Errorf("the inspector with holding=%s: %d %s, want a 400 naming holding", holding, res.status, res.body)
			}
		}
	})
}

// TestConsentArrivesAsReported: a source keeper's consent to an on-move
// ends no journey of theirs, so its arrivalDate, however late, does not
// move the animals' arrival: they are on the destination from the transfer
// date the destination reported. The consent, and an undo of it, concern
// both ends: the inspector finds them under the destination too.
func TestConsentArrivesAsReported(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2, insp := b.token("keeper1"), b.token("keeper2"), b.token("inspector")
		on := b.submit(k2, "TransferRequests", transfer(day(-5), farm1, farm2, farm2, sheep("130181", 5), nil))
		consent := decide(farm1, on.RequestID, true, 1)
		consent["reviewMovement"].(map[string]any)["arrivalDate"] = day(0) // five days on, past any journey
		review := b.submit(k1, "ReviewHoldingMovementRequests", consent)
		if !on.applied() || !review.applied() {
			t.Fatalf("on-move %s %+v, consent %s %+v", on.RequestStatus, on.Errors, review.RequestStatus, review.Errors)
		}
		var rec approvedItem
		b.get(fmt.Sprintf("/v1/ApprovedMovements(%d,Destination)", on.RequestID), k2).decode(&rec)
		if d := rec.Document.Destination; d == nil || d.ArrivalDateTime != day(-5)+"T00:00:00Z" {
			t.Errorf("arrival after a consent dated %s: %+v, want the transfer date %s", day(0), d, day(-5))
		}
		found := func(collection string, id int64) bool {
			t.Helper()
			var list struct{ Value []record }
			b.get("/v1/"+collection+"?$filter="+escape("holding eq '"+farm2+"'"), insp).decode(&list)
			return slices.ContainsFunc(list.Value, func(r record) bool { return r.RequestID == id })
		}
		if !found("ReviewHoldingMovementRequests", review.RequestID) {
			t.Errorf("the inspector's reviews of %s lack keeper1's consent %d", farm2, review.RequestID)
		}
		undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": review.RequestID})
		if !undo.applied() || !found("UndoRequests", undo.RequestID) {
			t.Errorf("the undo of the consent (%s %+v) is not among the inspector's undos of %s", undo.RequestStatus, undo.Errors, farm2)
		}
	})
}

// TestMidnightInAnotherOffset: a transferDate written as midnight in an
// offset that is neither UTC nor the UK's is an instant, not a day: two
// hours ahead of the clock, it is refused at once, as any time in the
// future is, even when it falls on today in the UK calendar.
func TestMidnightInAnotherOffset(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		uk, err := time.LoadLocation("Europe/London")
		if err != nil {
			t.Skip("no zone database")
		}
		var written string
		for ahead := 2 * time.Hour; written == ""; ahead += time.Hour {
			at := time.Now().UTC().Truncate(time.Minute).Add(ahead)
			local := -(at.Hour()*60 + at.Minute()) // minutes east of UTC that make at midnight there
			if h, m, _ := at.In(uk).Clock(); local == 0 || h == 0 && m == 0 {
				continue // midnight in UTC or the UK: a day
			}
			written = at.In(time.FixedZone("", local*60)).Format("2006-01-02T15:04:05-07:00")
		}
		body := transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil)
		body["transferDate"] = written
		res := b.post(k1, "TransferRequests", map[string]any{"content": body})
		if p := res.problem(); res.status != http.StatusBadRequest || len(p.Errors) != 1 || p.Errors[0].Code != "V019" ||
			p.Errors[0].Source != "/content/transferDate" {
			t.Errorf("transferDate %s, two hours ahead: %d %s, want 400 V019 at the transfer date", written, res.status, res.body)
		}
	})
}

// TestReviewFlagIDAndNameDiffer: a review's processing flag given as an
// id of one flag and the name of another is refused at once, naming the
// id, rather than kept as the sender may not have meant it.
func TestReviewFlagIDAndNameDiffer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k2, review := reviewOfOffMove(t, b)
		review["processingFlags"] = []map[string]any{{"processingFlagId": 102, "name": "SLAU"}} // 102 is GATH
		res := b.post(k2, "ReviewHoldingMovementRequests", map[string]any{"content": review})
		if p := res.problem(); res.status != http.StatusBadRequest || len(p.Errors) != 1 ||
			p.Errors[0].Source != "/content/processingFlags/0/processingFlagId" {
			t.Errorf("a flag's id 102 (GATH) with the name SLAU: %d %s, want 400 at the id", res.status, res.body)
		}
		review["processingFlags"] = []map[string]any{{"processingFlagId": 101, "name": "SLAU"}}
		if rec := b.submit(k2, "ReviewHoldingMovementRequests", review); !rec.applied() {
			t.Errorf("the same review with SLAU's own id: %s %+v", rec.RequestStatus, rec.Errors)
		}
	})
}
