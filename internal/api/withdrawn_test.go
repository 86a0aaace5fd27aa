package api_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestWithdrawnKeeperMovesNothing: a keeper whose holdings are withdrawn
// (drover import --update with none listed) moves no animal — not by a
// transfer, correction, review, undo or undo of a review sent before the
// withdrawal and applied after it (the job checks the grants again), nor
// by one sent after it (refused at once).
func TestWithdrawnKeeperMovesNothing(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		grants := b.grants("keeper1", "keeper2")
		const yard = "01/100/0258" // keeper1's sale yard: a move there needs no review

		// sentThenWithdrawn posts content while the jobs are paused,
		// withdraws user's holdings, lets the job run, and gives back the
		// holdings: the request must fail with code, having moved nothing.
		sentThenWithdrawn := func(name, token, user, collection string, content any, code string, stay map[string]string) {
			t.Helper()
			b.pauseJobs()
			res := b.post(token, collection, map[string]any{"content": content})
			b.withdraw(user)
			b.resumeJobs()
			if res.status != http.StatusCreated {
				t.Fatalf("%s: POST %s = %d %s", name, collection, res.status, res.body)
			}
			var rec record
			res.decode(&rec)
			rec = b.await(token, collection, rec.RequestID)
			if errs, _ := rec.codes(); rec.RequestStatus != "Fail" || !slices.Contains(errs, code) {
				t.Errorf("%s: %s %+v, want Fail with %s", name, rec.RequestStatus, rec.Errors, code)
			}
			b.wantOn(name, stay)
			b.regrant(user, grants[user])
		}

		off := b.submit(k1, "TransferRequests", transfer(day(-2), farm1, farm2, farm1, sheep("130181", 1, 2), nil))
		if off.RequestStatus != "Success" {
			t.Fatalf("transfer to review: %+v", off)
		}
		sentThenWithdrawn("transfer", k1, "keeper1", "TransferRequests",
			transfer(day(-1), farm1, yard, farm1, sheep("130181", 3), nil), "4038", map[string]string{"UK0130181 00003": farm1})
		sentThenWithdrawn("correction", k1, "keeper1", "CorrectTransferRequests",
			with(transfer(day(-2), farm1, yard, farm1, sheep("130181", 1, 2), nil), "requestToBeUndone_ID", off.RequestID),
			"4038", map[string]string{"UK0130181 00001": farm1})
		review := map[string]any{"holding": farm2, "reviewMovement": map[string]any{"requestId": off.RequestID,
			"isAccepted": true, "arrivalDate": day(-1), "animalTotal": 2}}
		sentThenWithdrawn("review", k2, "keeper2", "ReviewHoldingMovementRequests", review, "30003",
			map[string]string{"UK0130181 00001": farm1, "UK0130181 00002": farm1})

		// Applied while the keepers acted; undone after they no longer do.
		own := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, yard, farm1, sheep("130181", 5), nil))
		reviewed := b.submit(k2, "ReviewHoldingMovementRequests", review)
		if !own.applied() || reviewed.RequestStatus != "Success" {
			t.Fatalf("own move %+v, review %+v", own, reviewed)
		}
		moved := map[string]string{"UK0130181 00005": yard, "UK0130181 00001": farm2, "UK0130181 00002": farm2}
		sentThenWithdrawn("undo of a transfer", k1, "keeper1", "UndoRequests",
			map[string]any{"requestToBeUndone_ID": own.RequestID}, "A002", moved)
		sentThenWithdrawn("undo of a review", k2, "keeper2", "UndoRequests",
			map[string]any{"requestToBeUndone_ID": reviewed.RequestID}, "A002", moved)

		// Sent after the withdrawal: refused at once, naming only the
		// request's own holding.
		b.withdraw("keeper1")
		b.withdraw("keeper2")
		for _, tc := range []struct {
			name, user, collection string
			content                any
		}{
			{"undo of a transfer", "keeper1", "UndoRequests", map[string]any{"requestToBeUndone_ID": own.RequestID}},
			{"undo of a review", "keeper2", "UndoRequests", map[string]any{"requestToBeUndone_ID": reviewed.RequestID}},
			{"transfer", "keeper1", "TransferRequests", transfer(day(-1), farm1, yard, farm1, sheep("130181", 6), nil)},
			{"correction", "keeper1", "CorrectTransferRequests",
				with(transfer(day(-2), farm1, yard, farm1, sheep("130181", 1), nil), "requestToBeUndone_ID", off.RequestID)},
		} {
			res := b.post(b.token(tc.user), tc.collection, map[string]any{"content": tc.content})
			if res.status != http.StatusForbidden || !slices.Contains(res.problem().codes(), "A002") {
				t.Errorf("%s after the withdrawal: %d %s, want 403 A002", tc.name, res.status, res.body)
			}
		}
		b.wantOn("after the refusals", moved)
	})
}

// with is m with k set to v.
func with(m map[string]any, k string, v any) map[string]any { m[k] = v; return m }

// grants reads the holdings each user acts for.
func (b *bundle) grants(users ...string) map[string][]livestock.CPH {
	b.t.Helper()
	out := map[string][]livestock.CPH{}
	for _, name := range users {
		u, err := b.store.UserByName(context.Background(), name)
		if err != nil {
			b.t.Fatal(err)
		}
		for _, h := range u.Holdings {
			out[name] = append(out[name], h.CPH)
		}
	}
	return out
}

// withdraw takes every holding from a keeper, as drover import --update
// does with a keeper listed with none.
func (b *bundle) withdraw(user string) { b.regrant(user, nil) }

// regrant makes a keeper act for exactly holdings.
func (b *bundle) regrant(user string, holdings []livestock.CPH) {
	b.t.Helper()
	if _, err := b.store.Seed(context.Background(), store.Seed{Update: true, Users: []store.SeedUser{
		{Name: user, Role: livestock.RoleKeeper, Holdings: holdings}}}); err != nil {
		b.t.Fatal(err)
	}
}

// wantOn checks that each tag's animal is on the holding given.
func (b *bundle) wantOn(name string, on map[string]string) {
	b.t.Helper()
	var tags []string
	for tag := range on {
		tags = append(tags, tag)
	}
	var animals map[string]store.Animal
	if err := b.store.InTx(context.Background(), func(ctx context.Context, tx store.Tx) (err error) {
		animals, err = tx.Animals(ctx, tags)
		return err
	}); err != nil {
		b.t.Fatal(err)
	}
	for tag, cph := range on {
		if got := animals[tag].CPH.String(); got != cph {
			b.t.Errorf("%s: %s is on %s, want %s", name, tag, got, cph)
		}
	}
}
