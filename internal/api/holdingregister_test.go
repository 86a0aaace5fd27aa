package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestHoldingRegister: a keeper reads their holding's register on a date
// and its movements over a window, as JSON and CSV; another keeper gets
// the 404 of a holding that does not exist; bad dates are a 400.
func TestHoldingRegister(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b, cow, from, to := traceSetup(t, s)
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		var reg struct {
			Animals []struct{ Identifier, Since string }
		}
		res := b.do(http.MethodGet, "/v1/holdings/"+escCPH(to)+"/animals?date=2025-03-06", k2, nil)
		if res.status != http.StatusOK {
			t.Fatalf("register: %d %s", res.status, res.body)
		}
		res.decode(&reg)
		found := false
		for _, a := range reg.Animals {
			found = found || (a.Identifier == cow && a.Since == "2025-03-05")
		}
		if !found {
			t.Errorf("keeper2's register on 6 March lacks the cow: %s", res.body)
		}
		res = b.do(http.MethodGet, "/v1/holdings/"+escCPH(from)+"/animals?date=2025-03-04", k1, nil, "Accept", "text/csv")
		if !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") || !strings.Contains(string(res.body), "animal,"+cow+",Cattle,1,2024-01-01,2025-03-05") {
			t.Errorf("keeper1's register CSV on 4 March: %s", res.body)
		}
		if res := b.do(http.MethodGet, "/v1/holdings/"+escCPH(to)+"/animals", k1, nil); res.status != http.StatusNotFound {
			t.Errorf("keeper1 read keeper2's register: %d", res.status)
		}
		if res := b.do(http.MethodGet, "/v1/holdings/01%2F999%2F9999/animals", b.token(sandbox.Inspector), nil); res.status != http.StatusNotFound {
			t.Errorf("a holding not there: %d", res.status)
		}
		if res := b.do(http.MethodGet, "/v1/holdings/"+escCPH(from)+"/animals?date=2025-02-30", k1, nil); res.status != http.StatusBadRequest {
			t.Errorf("date 2025-02-30: %d", res.status)
		}
		if res := b.do(http.MethodGet, "/v1/holdings/"+escCPH(from)+"/animals?date=0001-01-01", k1, nil); res.status != http.StatusBadRequest ||
			res.problem().Errors[0].Source != "query:date" {
			t.Errorf("date 0001-01-01, Go's zero time: %d %s", res.status, res.body)
		}

		var mv struct {
			Movements []struct{ Direction, Destination string }
		}
		res = b.do(http.MethodGet, "/v1/holdings/"+escCPH(from)+"/movements?from=2025-03-01&to=2025-03-31", k1, nil)
		res.decode(&mv)
		if len(mv.Movements) != 1 || mv.Movements[0].Direction != "out" || mv.Movements[0].Destination != to {
			t.Errorf("keeper1's movements: %s", res.body)
		}
		res = b.do(http.MethodGet, "/v1/holdings/"+escCPH(to)+"/movements?from=2025-03-01&to=2025-03-31", k2, nil, "Accept", "text/csv")
		if !strings.Contains(string(res.body), ",in,Completed,Cattle,"+from+","+to+",2025-03-05,2025-03-05,1,"+cow+",") {
			t.Errorf("keeper2's movements CSV: %s", res.body)
		}
		for _, q := range []string{"?from=2025-03-01", "?from=2025-03-01&to=2026-03-31", "?from=2025-03-31&to=2025-03-01"} {
			if res := b.do(http.MethodGet, "/v1/holdings/"+escCPH(from)+"/movements"+q, k1, nil); res.status != http.StatusBadRequest {
				t.Errorf("movements%s: %d, want 400", q, res.status)
			}
		}
		// A parameter the endpoint does not take is named, not ignored:
		// dat= would otherwise be today's register.
		for path, source := range map[string]string{
			"/v1/holdings/" + escCPH(from) + "/animals?dat=2025-03-04":                                "query:dat",
			"/v1/holdings/" + escCPH(from) + "/movements?from=2025-03-01&to=2025-03-31&species=sheep": "query:species",
			"/v1/holdings/" + escCPH(from) + "/animals?zz=1&dat=2025-03-04&b=2":                       "query:b",
			"/v1/animals/" + cow + "/history?date=2025-03-04":                                         "query:date",
		} {
			res := b.do(http.MethodGet, path, k1, nil)
			if res.status != http.StatusBadRequest || res.problem().Errors[0].Source != source {
				t.Errorf("%s: %d %s, want 400 naming %s", path, res.status, res.body, source)
			}
		}
	})
}

// TestAnimalHistory: the inspector sees the cow's whole life; each keeper
// the stay on their holding and the movement between them; a keeper who
// never kept an animal gets the 404 of an animal not registered.
func TestAnimalHistory(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b, cow, from, to := traceSetup(t, s)
		type history struct {
			Holding   string
			Stays     []struct{ Holding, From, To string }
			Movements []struct{ MovementID int64 }
		}
		path := "/v1/animals/" + strings.ReplaceAll(cow, " ", "%20") + "/history"
		for _, tc := range []struct {
			user    string
			stays   []string
			holding string
		}{
			{sandbox.Inspector, []string{from + " 2024-01-01 2025-03-05", to + " 2025-03-05 "}, to},
			{"keeper1", []string{from + " 2024-01-01 2025-03-05"}, ""},
			{"keeper2", []string{to + " 2025-03-05 "}, to},
		} {
			res := b.do(http.MethodGet, path, b.token(tc.user), nil)
			if res.status != http.StatusOK {
				t.Fatalf("%s: %d %s", tc.user, res.status, res.body)
			}
			var h history
			res.decode(&h)
			var stays []string
			for _, st := range h.Stays {
				stays = append(stays, st.Holding+" "+st.From+" "+st.To)
			}
			if strings.Join(stays, "|") != strings.Join(tc.stays, "|") || len(h.Movements) != 1 || h.Holding != tc.holding {
				t.Errorf("%s sees %s, want stays %v, one movement, holding %q", tc.user, res.body, tc.stays, tc.holding)
			}
		}
		other := sandbox.Keepers[0].CalfTag(2).String()
		if res := b.do(http.MethodGet, "/v1/animals/"+other+"/history", b.token("keeper2"), nil); res.status != http.StatusNotFound {
			t.Errorf("keeper2 read keeper1's unmoved cow: %d %s", res.status, res.body)
		}
		if res := b.do(http.MethodGet, "/v1/animals/"+other+"/history", b.token("keeper1"), nil); res.status != http.StatusOK {
			t.Errorf("keeper1 read their own cow: %d %s", res.status, res.body)
		}
		if res := b.do(http.MethodGet, "/v1/animals/UK999999900001/history", b.token(sandbox.Inspector), nil); res.status != http.StatusNotFound {
			t.Errorf("no such animal: %d", res.status)
		}
	})
}

// TestRejectedMoveArrivesNowhere: in an animal's history a movement its
// review rejected has no arrival date, though the review gave one: the
// animal never arrived.
func TestRejectedMoveArrivesNowhere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		off := b.submit(k1, "TransferRequests", transfer(day(-2), farm1, farm2, farm1, sheep("130181", 5), nil))
		if rejected := b.submit(k2, "ReviewHoldingMovementRequests", decide(farm2, off.RequestID, false, 0)); !off.applied() || !rejected.applied() {
			t.Fatalf("transfer %+v, rejection %+v", off, rejected)
		}
		var h struct {
			Movements []struct {
				State       string
				ArrivalDate *string
			}
		}
		b.do(http.MethodGet, "/v1/animals/UK0130181%2000005/history", k1, nil).decode(&h)
		if len(h.Movements) != 1 || h.Movements[0].State != "Rejected" || h.Movements[0].ArrivalDate != nil {
			t.Errorf("the sheep's history: %+v, want one Rejected movement with no arrival date", h.Movements)
		}
	})
}
