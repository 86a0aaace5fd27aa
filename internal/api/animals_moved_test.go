package api_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// sites is the part of the live Animal that says where an animal was born
// and where it is.
type sites struct {
	Birth *struct {
		Site *struct{ Identifiers []struct{ Identifier string } }
	}
	CurrentSite struct{ Identifiers []struct{ Identifier string } }
}

// sitesOf reads the seeded animal tag as token sees it (the live check in
// bundle.do holds the answer to the live Animal) and returns its birth
// site, "" when the answer has none, and its current site.
func (b *bundle) sitesOf(tag, token string) (born, on string) {
	b.t.Helper()
	res := b.get("/v1/animals/"+url.PathEscape(tag), token)
	if res.status != http.StatusOK {
		b.t.Fatalf("GET animal %s = %d %s", tag, res.status, res.body)
	}
	var s sites
	res.decode(&s)
	if s.Birth != nil && s.Birth.Site != nil && len(s.Birth.Site.Identifiers) > 0 {
		born = s.Birth.Site.Identifiers[0].Identifier
	}
	if len(s.CurrentSite.Identifiers) > 0 {
		on = s.CurrentSite.Identifiers[0].Identifier
	}
	return born, on
}

// TestMovedAnimalKeepsItsBirthSite: a seeded sheep's look-up answers in the
// live shape, with the same birth site before and after it moves (with a
// batch beside it, or alone in a batch-free transfer) and after a move of
// it is undone, and with its current site following it. The market lot,
// at keeper1's sale yard since its birth, was born on the holding its flock
// mark names, and stays so when it leaves the yard.
func TestMovedAnimalKeepsItsBirthSite(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2, insp := b.token("keeper1"), b.token("keeper2"), b.token("inspector")
		const withBatch, alone, undone, lot = "UK0130181 00001", "UK0130181 00002", "UK0130181 00003", "UK0130191 00001"
		want := func(name, tag, token, born, on string) {
			t.Helper()
			if gotBorn, gotOn := b.sitesOf(tag, token); gotBorn != born || gotOn != on {
				t.Errorf("%s: %s born on %q, on %q; want born on %q, on %q", name, tag, gotBorn, gotOn, born, on)
			}
		}
		for _, tag := range []string{withBatch, alone, undone} {
			want("before any move", tag, k1, farm1, farm1)
		}
		want("before any move", lot, k1, farm1, yard1)

		// keeper1 moves one sheep and a batch to keeper2, who accepts them.
		sent := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, farm2, farm1, sheep("130181", 1),
			[]map[string]any{{"batchNumber": "UK130181", "animalTotal": 3}}))
		if !sent.applied() {
			t.Fatalf("transfer with a batch: %s %+v", sent.RequestStatus, sent.Errors)
		}
		if rec := b.submit(k2, "ReviewHoldingMovementRequests", decide(farm2, sent.RequestID, true, 4)); !rec.applied() {
			t.Fatalf("keeper2's review: %s %+v", rec.RequestStatus, rec.Errors)
		}
		b.wantOn("accepted by keeper2", map[string]string{withBatch: farm2})
		want("moved with a batch", withBatch, k2, farm1, farm2)

		// A batch-free move to keeper1's showground, and the lot off the yard.
		if rec := b.submit(k1, "TransferRequests", transfer(day(0), farm1, show1, farm1, sheep("130181", 2), nil)); !rec.applied() {
			t.Fatalf("batch-free transfer: %s %+v", rec.RequestStatus, rec.Errors)
		}
		b.wantOn("batch-free", map[string]string{alone: show1})
		want("moved alone", alone, k1, farm1, show1)
		if rec := b.submit(k1, "TransferRequests", transfer(day(0), yard1, farm1, farm1, sheep("130191", 1), nil)); !rec.applied() {
			t.Fatalf("the lot off the yard: %s %+v", rec.RequestStatus, rec.Errors)
		}
		want("off the sale yard", lot, insp, farm1, farm1)

		// A move undone leaves the sheep where it was, born where it was.
		third := b.submit(k1, "TransferRequests", transfer(day(0), farm1, collection1, farm1, sheep("130181", 3), nil))
		if !third.applied() {
			t.Fatalf("third transfer: %s %+v", third.RequestStatus, third.Errors)
		}
		want("moved before the undo", undone, insp, farm1, collection1)
		if rec := b.submit(k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": third.RequestID}); rec.RequestStatus != "Success" {
			t.Fatalf("undo: %+v", rec)
		}
		b.wantOn("undone", map[string]string{undone: farm1})
		want("undone", undone, k1, farm1, farm1)
	})
}

// TestImportedAnimalLiveShape: an animal registered as existing stock (an
// import) whose birth site is not known is read back in the live shape,
// which requires a birth's site: its birth, with the date given, at a site
// of type unknown with no identifiers.
func TestImportedAnimalLiveShape(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		tag, err := livestock.NewCattleTag("442501", 110)
		if err != nil {
			t.Fatal(err)
		}
		body := calf(tag.String(), "", "2025-01-15")
		delete(body["birth"].(map[string]any), "site")
		reg := body["registration"].(map[string]any)
		reg["category"] = "registration"
		delete(reg, "birthDam")
		if res := b.register(k1, body); res.status != http.StatusOK {
			t.Fatalf("registering an import: %d %s", res.status, res.body)
		}
		if born, on := b.sitesOf(tag.String(), k1); born != "" || on != farm1 {
			t.Errorf("import: born on %q, on %q; want no birth site, on %s", born, on, farm1)
		}
		var got struct {
			Birth *struct {
				Date string
				Site *struct {
					Type        struct{ Type string }
					Identifiers []any
				}
			}
		}
		res := b.get("/v1/animals/"+url.PathEscape(tag.String()), k1)
		res.decode(&got)
		if got.Birth == nil || got.Birth.Date != "2025-01-15" || got.Birth.Site == nil || got.Birth.Site.Type.Type != "unknown" ||
			got.Birth.Site.Identifiers == nil || len(got.Birth.Site.Identifiers) != 0 {
			t.Errorf("import's birth: %s; want its date, at a site of type unknown with no identifiers", res.body)
		}
	})
}
