package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// keeper1Secrets is keeper1's private business, which concerns no holding
// of keeper2's: moves between keeper1's own holdings and one awaiting
// keeper3's review (flock 130182, tracking ids "k1-secret-…"), and a
// registration. markers are strings that only it contains.
type keeper1Secrets struct {
	ids     []int64
	calf    string // a calf keeper1 registered
	regID   string // the id of its async registration
	markers []string
}

func newSecrets(b *bundle, k1 string) keeper1Secrets {
	b.t.Helper()
	s := keeper1Secrets{markers: []string{"k1-secret", "130182", "keeper1"}}
	for i := 1; i <= 5; i++ {
		move := transfer(day(-1), farm1, "01/100/0258", farm1, sheep("130182", i), nil)
		move["trackingId"] = fmt.Sprintf("k1-secret-%d", i)
		s.ids = append(s.ids, b.submit(k1, "TransferRequests", move).RequestID)
	}
	// A move to keeper3 awaits keeper3's review: keeper1's and keeper3's
	// business, not keeper2's.
	b.addStranger()
	move := transfer(day(-1), farm1, strangerCPH, farm1, sheep("130182", 6), nil)
	move["trackingId"] = "k1-secret-review"
	s.ids = append(s.ids, b.submit(k1, "TransferRequests", move).RequestID)
	s.calf = "UK442501" + checkDigit(b.t, "442501", 120) + "00120"
	res := b.register(k1, calf(s.calf, "UK442501300001", day(-3)), "x-Request-Mode", "async")
	if res.status != http.StatusAccepted {
		b.t.Fatalf("async registration = %d %s", res.status, res.body)
	}
	s.regID = res.header.Get("X-Request-ID")
	s.markers = append(s.markers, s.calf, s.regID)
	return s
}

// leaks reports the first of keeper1's identifiers in keeper2's response
// to the request for target. An error may echo what keeper2 sent, and a
// nextLink repeats keeper2's query: neither counts.
func (s keeper1Secrets) leaks(res response, target string) string {
	body := string(res.body)
	var page map[string]any
	// A next link quotes the caller's own query, and a 201's content is
	// the caller's own body echoed: neither is keeper1's.
	if json.Unmarshal(res.body, &page) == nil && (page["@odata.nextLink"] != nil || res.status == http.StatusCreated) {
		delete(page, "@odata.nextLink")
		if res.status == http.StatusCreated {
			delete(page, "content")
		}
		data, _ := json.Marshal(page)
		body = string(data)
	}
	sent, _ := url.PathUnescape(target)
	for _, m := range s.markers {
		if strings.Contains(body, m) && !(res.status >= 400 && strings.Contains(strings.ToLower(sent), strings.ToLower(m))) {
			return m
		}
	}
	for _, id := range s.ids {
		if strings.Contains(body, fmt.Sprintf(`"requestId":%d,`, id)) {
			return fmt.Sprint("requestId ", id)
		}
	}
	return ""
}

// TestKeeperIsolation: with both keepers holding data, nothing keeper2
// asks for — filters naming keeper1's ids, $expand, keeper1's nextLink,
// forged skip tokens, keeper1's registration ids — shows keeper2 any of
// keeper1's private business.
func TestKeeperIsolation(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{MaxPage: 2})
		k1, k2, insp := b.token("keeper1"), b.token("keeper2"), b.token("inspector")
		sec := newSecrets(b, k1)
		for i := 1; i <= 3; i++ {
			b.submit(k2, "TransferRequests", transfer(day(-1), farm2, "01/100/0265", farm2, sheep("130186", i), nil))
		}

		// keeper1's first page, and where it continues.
		// Not vacuous: keeper3 sees the move awaiting review.
		if res := b.do(http.MethodGet, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0300')", b.token("keeper3"), nil); !strings.Contains(string(res.body), "130182") {
			t.Fatalf("keeper3's reviews = %d %s", res.status, res.body)
		}
		first := b.do(http.MethodGet, "/v1/TransferRequests?$expand=content", k1, nil)
		var page struct {
			Next string `json:"@odata.nextLink"`
		}
		first.decode(&page)
		if page.Next == "" || !strings.Contains(string(first.body), "k1-secret") {
			t.Fatalf("keeper1's first page = %s", first.body)
		}
		next := page.Next[strings.Index(page.Next, "/v1/"):]

		var queries []string
		for _, c := range []string{"TransferRequests", "CorrectTransferRequests", "UndoRequests", "ReviewHoldingMovementRequests"} {
			for _, f := range []string{
				"", fmt.Sprintf("requestId eq %d", sec.ids[0]), "trackingId eq 'k1-secret-1'", "userName eq 'keeper1'",
				fmt.Sprintf("requestId ge %d or userName eq 'keeper1' or trackingId ne 'x'", sec.ids[0]),
				"not (userName eq 'keeper2')", "species eq 'Sheep' and requestStatus eq 'Success'",
				"holding eq '" + farm1 + "'", "holding eq '01/100/0258'", "holding ne '" + farm2 + "'",
			} {
				q := "/v1/" + c + "?$expand=content"
				if f != "" {
					q += "&$filter=" + url.QueryEscape(f)
				}
				queries = append(queries, q)
			}
		}
		for _, tok := range []string{odata.SkipToken(0), odata.SkipToken(sec.ids[0] - 1), odata.SkipToken(1 << 62)} {
			queries = append(queries, "/v1/TransferRequests?$expand=content&$skiptoken="+tok)
		}
		queries = append(queries, next, strings.Replace(next, "%24skiptoken=", "%24skiptoken="+odata.SkipToken(0)+"&x=", 1),
			fmt.Sprintf("/v1/HoldingMovementForReviews(species='Sheep',holding='01%%2f100%%2f0264')?$filter=requestId%%20eq%%20%d", sec.ids[0]),
			"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')?$filter="+url.QueryEscape("requestId ge 0 or requestId lt 0"),
			"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')?$filter="+url.QueryEscape("not (requestId eq 0) or movementDate ge 2000-01-01T00:00:00Z"),
			fmt.Sprintf("/v1/TransferRequests(%d)?$expand=content", sec.ids[0]),
			fmt.Sprintf("/v1/UndoRequests(%d)?$expand=content", sec.ids[0]),
			"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0257')",
			"/v1/requeststatus/"+sec.regID, "/v1/requeststatus/"+strings.ToUpper(sec.regID),
			"/v1/animals/"+sec.calf, "/v1/animals/"+strings.ToLower(sec.calf))
		// keeper2 registers a calf on its own holding, naming keeper1's
		// cow as the dam and one of keeper1's tags: the errors say that
		// the tag is not keeper2's and that no such dam is registered
		// (as of one never registered), and nothing of where they are.
		site := map[string]any{"identifiers": []map[string]any{{"identifier": farm2, "type": "holdingNumber"}}}
		body := calf("UK442501"+checkDigit(t, "442501", 121)+"00121", "UK442501300001", day(-3))
		body["birth"].(map[string]any)["site"], body["registration"].(map[string]any)["site"] = site, site
		if res := b.register(k2, body); res.status != http.StatusBadRequest ||
			!strings.Contains(string(res.body), `"V040"`) || !strings.Contains(string(res.body), `"V031"`) ||
			strings.Contains(string(res.body), farm1) || strings.Contains(string(res.body), "0257") {
			t.Errorf("keeper2's registration with keeper1's dam and tag = %d %s; want 400 with V031 and V040, not naming %s",
				res.status, res.body, farm1)
		}
		for _, q := range queries {
			res := b.do(http.MethodGet, q, k2, nil)
			if res.status >= 500 || res.status == http.StatusUnauthorized {
				t.Errorf("keeper2 GET %s: %d %s", q, res.status, res.body)
			}
			if m := sec.leaks(res, q); m != "" {
				t.Errorf("keeper2 GET %s (%d) shows keeper1's %s: %s", q, res.status, m, res.body)
			}
			if res.status >= 400 {
				res.problem()
			}
			// Not vacuous: the inspector may see it all.
			if strings.Contains(q, "trackingId eq 'k1-secret-1'") {
				if r := b.do(http.MethodGet, q, insp, nil); !strings.Contains(string(r.body), "k1-secret-1") && strings.Contains(q, "/TransferRequests") {
					t.Errorf("inspector GET %s = %s", q, r.body)
				}
			}
		}
	})
}
