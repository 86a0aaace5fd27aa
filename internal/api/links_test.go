package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestLinksIgnoreHost: the links Drover writes (Location, @odata.context,
// @odata.nextLink) never come from the request's Host, which any client
// may set: without --public-url they are relative, with it they start
// with it.
func TestLinksIgnoreHost(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		for n, tc := range []struct {
			name, public, prefix string
		}{
			{"no public URL", "", "/v1/"},
			{"public URL", "https://drover.example", "https://drover.example/v1/"},
		} {
			b := setup(t, s, api.Config{PublicURL: tc.public, MaxPage: 1})
			k1 := b.token("keeper1")
			const evil = "evil.example"
			var links []string
			for i := range 2 {
				res := b.post(k1, "TransferRequests", map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130187", i+1), nil)},
					"Host", evil)
				var rec struct {
					Context string `json:"@odata.context"`
				}
				res.decode(&rec)
				links = append(links, res.header.Get("Location"), rec.Context)
			}
			animal := 900 + n
			res := b.register(k1, calf("UK442501"+checkDigit(t, "442501", animal)+fmt.Sprintf("%05d", animal), "UK442501300001", day(-3)),
				"x-Request-Mode", "async", "Host", evil)
			if res.status != http.StatusAccepted {
				t.Fatalf("%s: async registration = %d %s", tc.name, res.status, res.body)
			}
			links = append(links, res.header.Get("Location"))
			for _, path := range []string{"/v1/", "/v1/TransferRequests", "/v1/ApprovedMovements",
				"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0257')"} {
				res := b.do(http.MethodGet, path, k1, nil, "Host", evil)
				var page struct {
					Context  string `json:"@odata.context"`
					NextLink string `json:"@odata.nextLink"`
				}
				res.decode(&page)
				links = append(links, page.Context)
				if page.NextLink != "" {
					links = append(links, page.NextLink)
				}
			}
			if len(links) != 10 {
				t.Errorf("%s: %d links, want 10 (a next link on the transfer listing): %q", tc.name, len(links), links)
			}
			for _, l := range links {
				if strings.Contains(l, evil) || !strings.HasPrefix(l, tc.prefix) {
					t.Errorf("%s: link %q, want it to start %s and never name the request's Host", tc.name, l, tc.prefix)
				}
			}
		}
	})
}
