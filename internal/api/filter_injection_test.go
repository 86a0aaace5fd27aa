package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestFilterInjection: a $filter that tries to widen a query, reach SQL,
// name a field off the allow-list or call a function not offered is a 400 naming
// $filter, for the owner of the data and for another keeper alike; a
// forged $skiptoken is a 400 naming $skiptoken; and the data is intact
// afterwards.
func TestFilterInjection(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		sec := newSecrets(b, k1)
		const requests = "/v1/TransferRequests?$expand=content&"
		const reviews = "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0264')?"
		cases := []struct{ base, option, value string }{
			{requests, "$filter", "cph eq '01/100/0257' or 1 eq 1"},
			{requests, "$filter", "trackingId eq 'x' or 1 eq 1"},
			{requests, "$filter", "trackingId eq 'x' or 'a' eq 'a'"},
			{requests, "$filter", "'; DROP TABLE requests;--"},
			{requests, "$filter", "trackingId eq ''; DROP TABLE requests;--'"},
			{requests, "$filter", "requestId eq 1; DELETE FROM requests"},
			{requests, "$filter", "requestId eq 1 -- and userName eq 'keeper2'"},
			{requests, "$filter", "requestId eq 1 /* */"},
			{requests, "$filter", "requestId eq 1 or true"},
			{requests, "$filter", "sourceHolding eq '01/100/0257'"},
			{requests, "$filter", "holding eq '01/100/0257'' or ''1'' eq ''1'"},
			{requests, "$filter", "holding eq '0257'"},
			{requests, "$filter", "holding gt '01/100/0000'"},
			{reviews, "$filter", "holding eq '01/100/0257'"},
			{requests, "$filter", "user_name eq 'keeper1'"},
			{requests, "$filter", "userName eq keeper1"},
			{reviews, "$filter", "userName eq 'keeper1'"},
			{reviews, "$filter", "sourceHolding eq '01/100/0257'"},
			{requests, "$filter", "tolower(userName) eq 'keeper1'"},
			{requests, "$filter", "trackingId in ('k1-secret-1')"},
			{requests, "$filter", strings.Repeat("(", 200) + "requestId eq 1" + strings.Repeat(")", 200)},
			{requests, "$filter", strings.Repeat("not ", 200) + "requestId eq 1"},
			{requests, "$filter", "trackingId eq 'k1-secret-1"},
			{requests, "$filter", "trackingId eq k1-secret-1'"},
			{requests, "$filter", "(requestId eq 1"},
			{requests, "$filter", "requestId eq 1)"},
			{requests, "$filter", "requestId eq 1 or"},
			{requests, "$filter", ""},
			{requests, "$skiptoken", "v1:0"},
			{requests, "$skiptoken", "djE6MA=="},
			{requests, "$skiptoken", "djE6LTE"},
			{requests, "$skiptoken", "djI6MQ"},
			{requests, "$skiptoken", "djE6MSBvciAxPTE"},
			{requests, "$skiptoken", strings.Repeat("A", 100)},
		}
		for _, tc := range cases {
			target := tc.base + url.Values{tc.option: {tc.value}}.Encode()
			for _, who := range []struct{ name, token string }{{"keeper1", k1}, {"keeper2", k2}} {
				res := b.do(http.MethodGet, target, who.token, nil)
				if res.status != http.StatusBadRequest {
					t.Errorf("%s %s=%q: %d, want 400: %s", who.name, tc.option, tc.value, res.status, res.body)
					continue
				}
				named := false
				for _, e := range res.problem().Errors {
					named = named || e.Source == "query:"+tc.option
				}
				if !named {
					t.Errorf("%s %s=%q: no error names query:%s: %s", who.name, tc.option, tc.value, tc.option, res.body)
				}
				if m := sec.leaks(res, target); who.token == k2 && m != "" {
					t.Errorf("keeper2 %s=%q shows keeper1's %s: %s", tc.option, tc.value, m, res.body)
				}
			}
		}

		// Literals are compared, never matched as patterns.
		for _, pattern := range []string{"%", "k1-secret-%", "_1-secret-1", "*"} {
			var page struct{ Value []record }
			res := b.do(http.MethodGet, requests+url.Values{"$filter": {"trackingId eq '" + pattern + "'"}}.Encode(), k1, nil)
			if res.decode(&page); res.status != http.StatusOK || len(page.Value) != 0 {
				t.Errorf("trackingId eq %q: %d, %d requests", pattern, res.status, len(page.Value))
			}
		}
		// The string functions widen nothing: another keeper's contains
		// finds none of keeper1's, and % _ * are themselves.
		for _, tc := range []struct {
			token, filter string
			want          int
		}{
			{k1, "contains(trackingId,'k1')", len(sec.ids)},
			{k2, "contains(trackingId,'k1')", 0},
			{k2, "startswith(userName,'keeper1') or not startswith(userName,'keeper1')", 0},
			{k1, "contains(trackingId,'%') or contains(trackingId,'_') or endswith(trackingId,'*')", 0},
			{k1, "startswith(trackingId,'k1-secret-') and endswith(trackingId,'-1')", 1},
		} {
			target := requests + url.Values{"$filter": {tc.filter}}.Encode()
			var page struct{ Value []record }
			res := b.do(http.MethodGet, target, tc.token, nil)
			if res.decode(&page); res.status != http.StatusOK || len(page.Value) != tc.want {
				t.Errorf("%s: %d, %d requests, want %d", tc.filter, res.status, len(page.Value), tc.want)
			}
			if m := sec.leaks(res, target); tc.token == k2 && m != "" {
				t.Errorf("keeper2 $filter=%q shows keeper1's %s: %s", tc.filter, m, res.body)
			}
		}
		// Every request is still there.
		var page struct{ Value []record }
		b.do(http.MethodGet, "/v1/TransferRequests", k1, nil).decode(&page)
		if len(page.Value) != len(sec.ids) {
			t.Errorf("keeper1 has %d transfers after the attempts, want %d", len(page.Value), len(sec.ids))
		}
	})
}

// TestInspectorTracesAHolding: `holding eq` lists every request whose
// source or destination is the holding, whoever sent it, and nothing
// else; a holding that is not a CPH is a 400 naming $filter.
func TestInspectorTracesAHolding(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2, insp := b.token("keeper1"), b.token("keeper2"), b.token("inspector")
		out := b.submit(k1, "TransferRequests", transfer(day(-1), farm1, "01/100/0258", farm1, sheep("130182", 1), nil))
		in := b.submit(k2, "TransferRequests", transfer(day(-1), "01/100/0258", farm2, farm2, sheep("130188", 1), nil))
		b.submit(k2, "TransferRequests", transfer(day(-1), farm2, "01/100/0265", farm2, sheep("130186", 1), nil))
		res := b.do(http.MethodGet, "/v1/TransferRequests?$filter="+url.QueryEscape("holding eq '01%2f100%2f0258'"), insp, nil)
		if res.status != http.StatusOK {
			t.Fatalf("inspector's trace = %d %s", res.status, res.body)
		}
		var page struct{ Value []record }
		res.decode(&page)
		var got []int64
		for _, r := range page.Value {
			got = append(got, r.RequestID)
		}
		if want := []int64{out.RequestID, in.RequestID}; !slices.Equal(got, want) {
			t.Errorf("inspector's trace of 01/100/0258 = %v, want %v", got, want)
		}
		res = b.do(http.MethodGet, "/v1/TransferRequests?$filter="+url.QueryEscape("holding eq '0258'"), insp, nil)
		if p := res.problem(); res.status != http.StatusBadRequest || p.Errors[0].Code != "S016" || p.Errors[0].Source != "query:$filter" {
			t.Errorf("holding eq '0258' = %d %s, want 400 S016 at query:$filter", res.status, res.body)
		}
	})
}
