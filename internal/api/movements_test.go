package api_test

import (
	"fmt"
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

const (
	farm1 = "01/100/0257" // keeper1's producer holding
	farm2 = "01/100/0264" // keeper2's producer holding
)

// TestMovementLifecycle walks the movements interface as two keepers
// would: a move with a review that accepts some animals and rejects one,
// a correction before review, an undo, and the standstill that arrivals
// put on a holding.
func TestMovementLifecycle(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")

		// keeper1 moves three tagged sheep and a batch of five to keeper2.
		move := transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1, 2, 3),
			[]map[string]any{{"batchNumber": "UK130181", "animalTotal": 5}})
		move["trackingId"] = "lifecycle-1"
		sent := b.submit(k1, "TransferRequests", move)
		if sent.RequestStatus != "Success" || !sent.UndoSupported {
			t.Fatalf("transfer = %+v", sent)
		}
		if res := b.do(http.MethodGet, "/v1/StandingData/documentType", k1, nil); !strings.Contains(string(res.body), `"code":"Drover"`) {
			t.Errorf("standing data documentType = %d %s, want the code Drover", res.status, res.body)
		}
		if !strings.Contains(string(sent.Content), `"tagNumber":"UK0130181 00001","rfid":"0826013018100001"`) {
			t.Errorf("content not normalised: %s", sent.Content)
		}
		if errs, warns := sent.codes(); errs != nil || warns != nil {
			t.Errorf("transfer errors %v warnings %v", errs, warns)
		}

		// An abattoir is looked up by its MHS too (livestock-movements.md:
		// "CPH or MHS"): keeper1's own, empty (moves to an abattoir await
		// no review); keeper2's, or one that no abattoir has, refused. The
		// inspector, who reads every holding, is told one is not there.
		insp := b.token("inspector")
		for _, tc := range []struct {
			token, mhs string
			status     int
		}{{k1, "0035", 200}, {k2, "0035", 403}, {k1, "0099", 403}, {insp, "0035", 200}, {insp, "0099", 404},
			{k2, "99%2F999%2F9999", 403}, {insp, "99%2F999%2F9999", 404}} {
			res := b.do(http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='"+tc.mhs+"')", tc.token, nil)
			if res.status != tc.status || tc.status == 200 && !strings.Contains(string(res.body), `"value":[]`) {
				t.Errorf("look-up by MHS %s = %d %s, want %d", tc.mhs, res.status, res.body, tc.status)
			}
			// A refusal names the MHS as sent, not the holding it is.
			if res.status == http.StatusForbidden && strings.Contains(string(res.body), "01/100/") {
				t.Errorf("refused look-up by MHS %s names a holding: %s", tc.mhs, res.body)
			}
			if res.status == http.StatusNotFound && res.problem().Errors[0].Source != "path:holding" {
				t.Errorf("look-up of %s: 404 at %q, want at path:holding", tc.mhs, res.problem().Errors[0].Source)
			}
		}

		// keeper2 finds it for review, by both forms of the look-up, with
		// the key values quoted or bare (the live template).
		for _, path := range []string{
			"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')",
			"/v1/HoldingMovementForReviews/ReviewBySpecies(species=%27Sheep%27,holding=%2701%2F100%2F0264%27)",
			"/v1/HoldingMovementForReviews/ReviewBySpecies(species=Sheep,holding=01%2F100%2F0264)",
		} {
			var page struct {
				Value []struct {
					RequestID     int64 `json:"requestId"`
					AnimalTotal   int   `json:"animalTotal"`
					ReviewDevices []struct{ TagNumber string }
				}
			}
			res := b.do(http.MethodGet, path, k2, nil)
			if res.status != http.StatusOK {
				t.Fatalf("GET %s = %d %s", path, res.status, res.body)
			}
			res.decode(&page)
			if len(page.Value) != 1 || page.Value[0].RequestID != sent.RequestID || page.Value[0].AnimalTotal != 8 || len(page.Value[0].ReviewDevices) != 3 {
				t.Errorf("GET %s = %s", path, res.body)
			}
			// keeper1 may not read keeper2's holding.
			if res := b.do(http.MethodGet, path, k1, nil); res.status != http.StatusForbidden {
				t.Errorf("keeper1 reading keeper2's reviews: %d", res.status)
			}
		}

		// keeper2 accepts what arrived, except one sheep.
		review := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{
			"holding": farm2,
			"reviewMovement": map[string]any{
				"requestId": sent.RequestID, "isAccepted": true, "arrivalDate": day(0), "animalTotal": 7,
				"rejectedDevices": []map[string]any{{"tagNumber": "UK0130181 00003"}},
			},
		})
		if review.RequestStatus != "Success" {
			t.Fatalf("review = %+v", review)
		}
		if after := b.await(k1, "TransferRequests", sent.RequestID); after.UndoSupported {
			t.Errorf("a reviewed transfer still undoable by its sender")
		}
		// Its sender's undo says who may unlock it: the live 14104.
		if undo := b.submit(k1, "UndoRequests", map[string]any{"undoRequestId": sent.RequestID}); undo.RequestStatus != "Fail" ||
			len(undo.Errors) != 1 || undo.Errors[0].Code != "14104" || !strings.Contains(undo.Errors[0].Message, "reviewer must undo the review") {
			t.Errorf("the sender undoing a reviewed transfer: %s %+v; want Fail with 14104", undo.RequestStatus, undo.Errors)
		}
		// Nothing awaits review any more.
		var empty struct{ Value []any }
		b.do(http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')", k2, nil).decode(&empty)
		if len(empty.Value) != 0 {
			t.Errorf("still awaiting review: %v", empty.Value)
		}

		// A sale cannot be dated after today, any more than the move; and
		// only a sale yard moving animals off gives one (4043).
		sold := transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 3), nil)
		sold["saleDate"] = day(1)
		if errs, _ := b.submit(k1, "TransferRequests", sold).codes(); !slices.Equal(errs, []string{"V019", "4043"}) {
			t.Errorf("a farm's sale dated tomorrow: %v, want V019 and 4043", errs)
		}

		// The accepted sheep are keeper2's now; the rejected one is still keeper1's.
		onward := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 1), nil))
		// 22039, the live catalogue's rule about one animal (V014), at the tag.
		if errs, _ := onward.codes(); !slices.Equal(errs, []string{"22039"}) || onward.Errors[0].Target != "content.movementGroups[0].devices[0].tagNumber" {
			t.Errorf("moving an animal keeper1 no longer has: %v", onward.Errors)
		}
		back := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 3), nil))
		if back.RequestStatus != "Success" {
			t.Errorf("moving the rejected sheep on: %+v", back)
		}

		// Standstill: sheep arrived on farm2 today, so keeper2 moving any off
		// farm2 today is warned, but still recorded; direct to slaughter is not.
		off := b.submit(k2, "TransferRequests", transfer(day(0), farm2, farm1, farm2, sheep("130186", 1), nil))
		if errs, warns := off.codes(); off.RequestStatus != "CompletedWarning" || errs != nil || !slices.Equal(warns, []string{"W001"}) {
			t.Errorf("move off under standstill: %s %v %v", off.RequestStatus, off.Errors, off.Warnings)
		}
		slaughter := transfer(day(0), farm2, "0035", farm2, sheep("130186", 2), nil)
		slaughter["processingFlags"] = []string{"SLAU"}
		if rec := b.submit(k2, "TransferRequests", slaughter); rec.RequestStatus != "Success" || len(rec.Warnings) != 0 {
			t.Errorf("direct to slaughter: %s %v %v", rec.RequestStatus, rec.Errors, rec.Warnings)
		}

		// The reviewed transfer cannot be corrected, and the refusal says
		// who may unlock it: the reviewer (V029 would meet an undo by keeper1).
		late := transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1, 2, 3), nil)
		late["requestToBeCorrected_ID"] = sent.RequestID
		if rec := b.submit(k1, "CorrectTransferRequests", late); len(rec.Errors) != 1 || rec.Errors[0].Code != "4076" ||
			!strings.Contains(rec.Errors[0].Message, "reviewing keeper may undo the review") {
			t.Errorf("correcting a reviewed transfer: %+v", rec.Errors)
		}

		// keeper1 corrects a transfer before keeper2 reviews it.
		first := b.submit(k1, "TransferRequests", transfer(day(0), farm1, farm2, farm1, sheep("130181", 4, 5), nil))
		correction := transfer(day(0), farm1, farm2, farm1, sheep("130181", 6, 7), nil)
		correction["requestToBeCorrected_ID"] = first.RequestID
		if res := b.post(k2, "CorrectTransferRequests", map[string]any{"content": correction}); res.status != http.StatusForbidden ||
			res.problem().Errors[0].Code != "A005" {
			t.Errorf("keeper2 correcting keeper1's transfer: %d %s", res.status, res.body)
		} else if _, code, _ := liveRefusal(res); code != "14002" {
			t.Errorf("keeper2 correcting keeper1's transfer: live code %s, want 14002", code)
		}
		// A correction names what it corrects (live 4074).
		unnamed := transfer(day(0), farm1, farm2, farm1, sheep("130181", 6, 7), nil)
		if res := b.post(k1, "CorrectTransferRequests", map[string]any{"content": unnamed}); res.status != http.StatusBadRequest {
			t.Errorf("a correction naming no request: %d %s", res.status, res.body)
		} else if _, code, target := liveRefusal(res); code != "4074" || target != "content.requestToBeUndone_ID" {
			t.Errorf("a correction naming no request: %s at %s, want 4074 at content.requestToBeUndone_ID", code, target)
		}
		// A correction may not move the reporting end (another of keeper1's
		// holdings as the source), or change the species (live 4077).
		redirect := transfer(day(0), "01/100/0259", farm2, "01/100/0259", sheep("130181", 6, 7), nil)
		redirect["requestToBeCorrected_ID"] = first.RequestID
		goats := transfer(day(0), farm1, farm2, farm1, sheep("130181", 6, 7), nil)
		goats["species"], goats["requestToBeCorrected_ID"] = "Goats", first.RequestID
		for name, tc := range map[string]struct {
			body   map[string]any
			target string
		}{"from another holding": {redirect, "content.sourceHolding"}, "of goats": {goats, "content.species"}} {
			if rec := b.submit(k1, "CorrectTransferRequests", tc.body); rec.RequestStatus != "Fail" || len(rec.Errors) == 0 ||
				rec.Errors[0].Code != "4077" || rec.Errors[0].Target != tc.target {
				t.Errorf("a correction %s: %s %+v, want Fail with 4077 at %s", name, rec.RequestStatus, rec.Errors, tc.target)
			}
		}
		corrected := b.submit(k1, "CorrectTransferRequests", correction)
		if !corrected.applied() { // CompletedWarning: farm1 is under standstill
			t.Fatalf("correction = %+v", corrected)
		}
		if orig := b.await(k1, "TransferRequests", first.RequestID); orig.UndoSupported {
			t.Error("the corrected transfer is still undoable")
		}
		var pending struct {
			Value []struct{ ReviewDevices []struct{ TagNumber string } }
		}
		b.do(http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')", k2, nil).decode(&pending)
		if len(pending.Value) != 1 || len(pending.Value[0].ReviewDevices) == 0 || pending.Value[0].ReviewDevices[0].TagNumber != "UK0130181 00006" {
			t.Errorf("after correction, awaiting review: %+v", pending.Value)
		}
		// $filter's requestId is the one the item shows: the correction's.
		for id, want := range map[int64]int{corrected.RequestID: 1, first.RequestID: 0} {
			var found struct{ Value []any }
			b.do(http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')?$filter="+
				url.QueryEscape(fmt.Sprintf("requestId eq %d", id)), k2, nil).decode(&found)
			if len(found.Value) != want {
				t.Errorf("awaiting review with requestId eq %d: %d, want %d", id, len(found.Value), want)
			}
		}
		// A second correction of the old version is refused.
		again := b.submit(k1, "CorrectTransferRequests", correction)
		if errs, _ := again.codes(); !slices.Equal(errs, []string{"4076"}) || // V028
			!strings.Contains(again.Errors[0].Message, fmt.Sprintf("correct request %d instead", corrected.RequestID)) {
			t.Errorf("correcting a superseded version: %v", again.Errors)
		}
		// Once the movement is undone, the refusal says so, rather than
		// pointing at its latest version.
		if undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": corrected.RequestID}); !undo.applied() {
			t.Fatalf("undoing the correction: %+v", undo)
		}
		if again := b.submit(k1, "CorrectTransferRequests", correction); len(again.Errors) != 1 ||
			!strings.Contains(again.Errors[0].Message, "it was undone") {
			t.Errorf("correcting a superseded version of an undone movement: %v", again.Errors)
		}

		// keeper1 undoes a third transfer; keeper2 may not.
		third := b.submit(k1, "TransferRequests", transfer(day(0), farm1, farm2, farm1, sheep("130181", 8), nil))
		if res := b.post(k2, "UndoRequests", map[string]any{"content": map[string]any{"requestToBeUndone_ID": third.RequestID}}); res.status != http.StatusForbidden ||
			res.problem().Errors[0].Code != "A005" {
			t.Errorf("keeper2 undoing keeper1's transfer: %d %s", res.status, res.body)
		} else if _, code, _ := liveRefusal(res); code != "14002" {
			t.Errorf("keeper2 undoing keeper1's transfer: live code %s, want 14002", code)
		}
		undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": third.RequestID})
		if undo.RequestStatus != "Success" {
			t.Fatalf("undo = %+v", undo)
		}
		if undone := b.await(k1, "TransferRequests", third.RequestID); !undone.IsFullUndone || undone.UndoSupported {
			t.Errorf("undone transfer = %+v", undone)
		}
		twice := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": third.RequestID})
		if errs, _ := twice.codes(); !slices.Equal(errs, []string{"14012"}) { // V079
			t.Errorf("undoing twice: %v", twice.Errors)
		}
		// The undone sheep can move again.
		if again := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0259", farm1, sheep("130181", 8), nil)); again.RequestStatus != "Success" {
			t.Errorf("moving an undone sheep: %v", again.Errors)
		}

		// keeper2 sees the transfers that concern farm2; the inspector sees all.
		var k2list, all struct{ Value []record }
		b.do(http.MethodGet, "/v1/TransferRequests", k2, nil).decode(&k2list)
		b.do(http.MethodGet, "/v1/TransferRequests", b.token("inspector"), nil).decode(&all)
		if len(all.Value) <= len(k2list.Value) || len(k2list.Value) == 0 {
			t.Errorf("keeper2 sees %d transfers, the inspector %d", len(k2list.Value), len(all.Value))
		}
		for _, r := range k2list.Value {
			if r.RequestID == back.RequestID {
				t.Errorf("keeper2 sees keeper1's move between keeper1's own holdings")
			}
		}
	})
}

// TestValidHoldings: the live answer, one result per entry in order:
// state 1 with the holding's name when registered, 2 otherwise (not
// registered, not written as a request body must write it, not even a
// string); and beside it content, the same with the state by name.
func TestValidHoldings(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		sent := []any{farm1, "0035", "99/999/9999", "9999", "011000257", "01%2f100%2f0257", "x", 7, nil, "0001-01-01T00:00:00.0000000+00:00"}
		holding := []string{farm1, "0035", "99/999/9999", "9999", "011000257", "01%2f100%2f0257", "x", "7", "", "0001-01-01T00:00:00.0000000+00:00"}
		name := []any{"Keeper1 Producer Farm", "Keeper1 Abattoir Farm", nil, nil, nil, nil, nil, nil, nil, nil}
		res := b.post(b.token("keeper2"), "Holdings/ValidHoldings", map[string]any{"content": map[string]any{"holdings": sent}})
		type result struct {
			Holding      string
			State        any
			PropertyName any
		}
		var got struct {
			ValidateResults []result
			Content         struct{ ValidateResults []result }
		}
		res.decode(&got)
		if res.status != http.StatusOK || len(got.ValidateResults) != len(sent) || len(got.Content.ValidateResults) != len(sent) {
			t.Fatalf("ValidHoldings = %d %s", res.status, res.body)
		}
		for i := range sent {
			state, named := float64(2), "Invalid"
			if name[i] != nil {
				state, named = 1, "Valid"
			}
			want := result{holding[i], state, name[i]}
			if diff := cmp.Diff(want, got.ValidateResults[i]); diff != "" {
				t.Errorf("holdings[%d] %v (-want +got):\n%s", i, sent[i], diff)
			}
			want.State = named
			if diff := cmp.Diff(want, got.Content.ValidateResults[i]); diff != "" {
				t.Errorf("content: holdings[%d] %v (-want +got):\n%s", i, sent[i], diff)
			}
		}
		for _, bad := range []map[string]any{{"holdings": []any{}}, {"holdings": nil}} {
			if res := b.post(b.token("keeper2"), "Holdings/ValidHoldings", map[string]any{"content": bad}); res.status != http.StatusBadRequest ||
				!strings.Contains(string(res.body), `"target":"content.holdings"`) || !strings.Contains(string(res.body), "at least one holding") {
				t.Errorf("ValidHoldings %v = %d %s, want 400 naming content.holdings and its rule", bad, res.status, res.body)
			}
		}
	})
}

// TestUndoReviewAfterARejectedAnimalMoved: a review that rejected an
// animal cannot be undone once that animal has moved on, since the
// movement would await review again and a second review could accept the
// animal from a holding it has left (found by an audit: the register then
// had it on the destination, and its later move could not be undone).
func TestUndoReviewAfterARejectedAnimalMoved(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		reviewRejecting := func(requestID int64, tag string) record {
			return b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
				"reviewMovement": map[string]any{"requestId": requestID, "isAccepted": true, "arrivalDate": day(0), "animalTotal": 1,
					"rejectedDevices": []map[string]any{{"tagNumber": tag}}}})
		}
		// While the rejected sheep stays where it was, the review can be undone.
		stays := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 3, 4), nil))
		if undo := b.submit(k2, "UndoRequests", map[string]any{"requestToBeUndone_ID": reviewRejecting(stays.RequestID, "UK0130181 00004").RequestID}); undo.RequestStatus != "Success" {
			t.Fatalf("undoing a review whose rejected sheep stayed: %+v", undo)
		}
		// The transfer awaits review again: keeper1 withdraws it.
		if undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": stays.RequestID}); undo.RequestStatus != "Success" {
			t.Fatalf("withdrawing the transfer again awaiting review: %+v", undo)
		}

		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1, 2), nil))
		review := reviewRejecting(sent.RequestID, "UK0130181 00002")
		if sent.RequestStatus != "Success" || review.RequestStatus != "Success" {
			t.Fatalf("transfer %+v, review %+v", sent, review)
		}
		// The rejected sheep stayed on farm1; keeper1 sends it to the sale yard.
		if on := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 2), nil)); on.RequestStatus != "Success" {
			t.Fatalf("moving the rejected sheep on: %+v", on)
		}
		undo := b.submit(k2, "UndoRequests", map[string]any{"requestToBeUndone_ID": review.RequestID})
		// 14121: an animal has been updated in a later request (V078). The
		// refusal says nothing of where keeper1's sheep went, nor which.
		if errs, _ := undo.codes(); undo.RequestStatus != "Fail" || !slices.Equal(errs, []string{"14121"}) ||
			strings.Contains(undo.Errors[0].Message, "00002") || strings.Contains(undo.Errors[0].Message, farm1) {
			t.Errorf("undoing the review after the rejected sheep moved on: %s %+v, want Fail 14121 naming nothing of keeper1's", undo.RequestStatus, undo.Errors)
		}
		// Nothing awaits review again, and the review stands.
		var pending struct{ Value []any }
		b.do(http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')", k2, nil).decode(&pending)
		if len(pending.Value) != 0 {
			t.Errorf("awaiting review after a refused undo: %v", pending.Value)
		}
		if after := b.await(k2, "ReviewHoldingMovementRequests", review.RequestID); after.IsFullUndone || !after.UndoSupported {
			t.Errorf("review after a refused undo: %+v", after)
		}
	})
}

// TestFilterOnTheRequestDateShown: the requestDate a request shows finds
// it with eq and le, and not with gt (found by an audit: the time kept had
// a fraction of a second the answer did not show).
func TestFilterOnTheRequestDateShown(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		sent := b.submit(k1, "TransferRequests", transfer(day(0), farm1, "01/100/0258", farm1, sheep("130181", 1), nil))
		var shown struct {
			RequestDate string `json:"requestDate"`
		}
		b.do(http.MethodGet, fmt.Sprintf("/v1/TransferRequests(%d)", sent.RequestID), k1, nil).decode(&shown)
		for op, want := range map[string]int{"eq": 1, "le": 1, "ge": 1, "gt": 0, "lt": 0} {
			var page struct{ Value []record }
			path := "/v1/TransferRequests?$filter=" + url.QueryEscape("requestDate "+op+" "+shown.RequestDate)
			if res := b.do(http.MethodGet, path, k1, nil); res.status != http.StatusOK {
				t.Fatalf("GET %s = %d %s", path, res.status, res.body)
			} else if res.decode(&page); len(page.Value) != want {
				t.Errorf("requestDate %s %s: %d requests, want %d", op, shown.RequestDate, len(page.Value), want)
			}
		}
	})
}

// TestReviewWithoutATotal: animalTotal is optional in a review; left out,
// it is not taken as 0 (which failed every review that accepted anything)
// nor shown in the request's content, which is what was sent.
func TestReviewWithoutATotal(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1, 2), nil))
		review := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": sent.RequestID, "isAccepted": true, "arrivalDate": day(0)}})
		if review.RequestStatus != "Success" || strings.Contains(string(review.Content), "animalTotal") {
			t.Errorf("review without animalTotal: %s %v, content %s", review.RequestStatus, review.Errors, review.Content)
		}
	})
}

// TestRepeatedTagPointsAtItsList: a tag given twice is a 400 V017 at the
// second one, in the list it was given in: devicesWithDetail, not devices
// at an index that list does not have.
func TestRepeatedTagPointsAtItsList(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	tag := func(n int) map[string]any { return map[string]any{"tagNumber": fmt.Sprintf("UK0130181 %05d", n)} }
	move := transfer(day(0), farm1, "01/100/0258", farm1, nil, nil)
	move["animalCount"] = 4
	move["movementGroups"] = []map[string]any{
		{"devicesWithDetail": []map[string]any{tag(3)}},
		{"devices": []map[string]any{tag(4)}, "devicesWithDetail": []map[string]any{tag(5), tag(3)}},
	}
	res := b.post(k1, "TransferRequests", map[string]any{"content": move})
	// The target is into the content in the live shape, where a device
	// with details nests its tag in device; 30022 is the live catalogue's
	// code for a tag given twice (V017), one of its immediate errors.
	const at = "content.movementGroups[1].devicesWithDetail[1].device.tagNumber"
	if status, code, target := liveRefusal(res); status != http.StatusBadRequest || code != "30022" || target != at {
		t.Errorf("a tag twice: %d %s, want 400 30022 at %s", res.status, res.body, at)
	}
}

// TestReviewShowsItsSpecies: a review, and an undo of it, show the species
// of the movement reviewed, and $filter on species finds them (the review's
// job learnt it, but it was never stored: every review showed null).
func TestReviewShowsItsSpecies(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1), nil))
		review := b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
			"reviewMovement": map[string]any{"requestId": sent.RequestID, "isAccepted": true, "arrivalDate": day(0)}})
		undo := b.submit(k2, "UndoRequests", map[string]any{"requestToBeUndone_ID": review.RequestID})
		for _, c := range []struct {
			collection string
			id         int64
		}{{"ReviewHoldingMovementRequests", review.RequestID}, {"UndoRequests", undo.RequestID}} {
			var rec struct {
				Species *string `json:"species"`
			}
			b.do(http.MethodGet, fmt.Sprintf("/v1/%s(%d)", c.collection, c.id), k2, nil).decode(&rec)
			var page struct{ Value []record }
			b.do(http.MethodGet, "/v1/"+c.collection+"?$filter="+url.QueryEscape("species eq 'Sheep'"), k2, nil).decode(&page)
			if rec.Species == nil || *rec.Species != "Sheep" || len(page.Value) != 1 {
				t.Errorf("%s(%d): species %v, %d found by species eq 'Sheep'", c.collection, c.id, rec.Species, len(page.Value))
			}
		}
	})
}

// TestUndoAfterTheAnimalsMovedAgain: a move whose animals moved again in a
// later request cannot be undone, even when they came back the same day (a
// check of where they are and since when would pass), nor a move of a
// batch some of which left again. The refusal names the later request when
// it is the undoer's own (live 14121).
func TestUndoAfterTheAnimalsMovedAgain(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		const yard, other = "01/100/0258", "01/100/0259"
		there := b.submit(k1, "TransferRequests", transfer(day(0), farm1, yard, farm1, sheep("130181", 7), nil))
		on := b.submit(k1, "TransferRequests", transfer(day(0), yard, other, yard, sheep("130181", 7), nil))
		back := b.submit(k1, "TransferRequests", transfer(day(0), other, yard, other, sheep("130181", 7), nil))
		lot := []map[string]any{{"batchNumber": "UK130182", "animalTotal": 3}}
		flock := b.submit(k1, "TransferRequests", transfer(day(0), farm1, yard, farm1, nil, lot))
		onward := b.submit(k1, "TransferRequests", transfer(day(0), yard, other, yard, nil, lot))
		for _, r := range []record{there, on, back, flock, onward} {
			if !r.applied() {
				t.Fatalf("transfer %d: %s %+v", r.RequestID, r.RequestStatus, r.Errors)
			}
		}
		for _, tc := range []struct {
			name   string
			undo   record
			second int64
		}{{"the sheep's first move", there, on.RequestID}, {"the batch's first move", flock, onward.RequestID}} {
			undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": tc.undo.RequestID})
			if errs, _ := undo.codes(); undo.RequestStatus != "Fail" || !slices.Equal(errs, []string{"14121"}) ||
				!strings.Contains(undo.Errors[0].Message, fmt.Sprintf("request %d", tc.second)) {
				t.Errorf("undoing %s: %s %+v, want Fail 14121 naming request %d", tc.name, undo.RequestStatus, undo.Errors, tc.second)
			}
		}
		// Undone from the last, each move goes back in turn.
		for _, r := range []record{back, on, there, onward, flock} {
			if undo := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": r.RequestID}); undo.RequestStatus != "Success" {
				t.Errorf("undoing %d in turn: %s %+v", r.RequestID, undo.RequestStatus, undo.Errors)
			}
		}
		var a struct{ Holding string }
		b.do(http.MethodGet, "/v1/animals/UK0130181%2000007", k1, nil).decode(&a)
		if a.Holding != farm1 {
			t.Errorf("the sheep after every move was undone is on %q, want %s", a.Holding, farm1)
		}
	})
}

// TestArrivalDayIsTheUKDay: a review's arrival date-time is on the day of
// the UK calendar, as a transfer date is: 01:00+05:00 on the day of the
// transfer is the evening before it, an arrival before the departure
// (live 21501), while 23:30-05:00 the day before is the morning after.
func TestArrivalDayIsTheUKDay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		review := func(sheepNo int, arrival string) record {
			sent := b.submit(k1, "TransferRequests", transfer(day(-2), farm1, farm2, farm1, sheep("130181", sheepNo), nil))
			return b.submit(k2, "ReviewHoldingMovementRequests", map[string]any{"holding": farm2,
				"reviewMovement": map[string]any{"requestId": sent.RequestID, "isAccepted": true, "arrivalDate": arrival, "animalTotal": 1}})
		}
		if early := review(9, day(-2)+"T01:00:00+05:00"); early.RequestStatus != "Fail" || len(early.Errors) == 0 || early.Errors[0].Code != "21501" {
			t.Errorf("arrival the evening before the transfer day: %s %+v, want Fail 21501", early.RequestStatus, early.Errors)
		}
		if late := review(10, day(-3)+"T23:30:00-05:00"); !late.applied() || late.MovementDate != day(-2)+"T04:30:00Z" {
			t.Errorf("arrival the morning of the transfer day: %s %+v, movementDate %q", late.RequestStatus, late.Errors, late.MovementDate)
		}
		// At most a day on the road (live 21502, its default maximum).
		if next := review(11, day(-1)); !next.applied() {
			t.Errorf("arrival the day after: %s %+v", next.RequestStatus, next.Errors)
		}
		if long := review(12, day(0)); long.RequestStatus != "Fail" || len(long.Errors) == 0 || long.Errors[0].Code != "21502" {
			t.Errorf("arrival two days after: %s %+v, want Fail 21502", long.RequestStatus, long.Errors)
		}
	})
}

// TestReviewedTwice: a second review of a movement, from the holding that
// reviewed it, ends Fail with the live 21389 naming the review that
// decided it; the first review stands.
func TestReviewedTwice(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 14), nil))
		first := b.submit(k2, "ReviewHoldingMovementRequests", decide(farm2, sent.RequestID, false, 0))
		again := b.submit(k2, "ReviewHoldingMovementRequests", decide(farm2, sent.RequestID, true, 1))
		if !first.applied() || again.RequestStatus != "Fail" || len(again.Errors) != 1 || again.Errors[0].Code != "21389" ||
			!strings.Contains(again.Errors[0].Message, fmt.Sprintf("request %d", first.RequestID)) {
			t.Errorf("reviewed twice: first %s, again %s %+v; want Fail 21389 naming request %d", first.RequestStatus, again.RequestStatus, again.Errors, first.RequestID)
		}
	})
}
