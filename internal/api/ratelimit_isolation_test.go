package api_test

import (
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestRateLimitIsPerUser: keeper1 bursting past the limit is refused with
// 429 and Retry-After, while keeper2's requests made at the same moment
// all succeed. The refill rate is so slow that no token comes back during
// the test, so the outcomes can be counted exactly without timing.
func TestRateLimitIsPerUser(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		const burst = 5
		b := setup(t, s, api.Config{RateLimit: 1e-6, RateBurst: burst})
		k1, k2, insp := b.token("keeper1"), b.token("keeper2"), b.token("inspector")

		const bursting = 4 * burst
		start := make(chan struct{})
		results := make(chan struct {
			user string
			res  response
		}, bursting+burst)
		var wg sync.WaitGroup
		send := func(user, token string) {
			wg.Go(func() {
				<-start
				res := b.do(http.MethodGet, "/v1/me", token, nil)
				results <- struct {
					user string
					res  response
				}{user, res}
			})
		}
		for range bursting {
			send("keeper1", k1)
		}
		for range burst {
			send("keeper2", k2)
		}
		close(start)
		wg.Wait()
		close(results)

		counts := map[string]map[int]int{"keeper1": {}, "keeper2": {}}
		for r := range results {
			counts[r.user][r.res.status]++
			if r.res.status == http.StatusTooManyRequests {
				if secs, err := strconv.Atoi(r.res.header.Get("Retry-After")); err != nil || secs < 1 {
					t.Errorf("429 Retry-After = %q", r.res.header.Get("Retry-After"))
				}
				r.res.problem()
			}
		}
		if got := counts["keeper1"]; got[http.StatusOK] != burst || got[http.StatusTooManyRequests] != bursting-burst {
			t.Errorf("keeper1's burst of %d: %v, want %d × 200 and %d × 429", bursting, got, burst, bursting-burst)
		}
		if got := counts["keeper2"]; got[http.StatusOK] != burst {
			t.Errorf("keeper2 alongside: %v, want %d × 200", got, burst)
		}

		// keeper1 is still held back; the inspector, who has not asked
		// yet, is not; keeper2 has now used its own burst.
		for _, tc := range []struct {
			user, token string
			want        int
		}{{"keeper1", k1, http.StatusTooManyRequests}, {"inspector", insp, http.StatusOK}, {"keeper2", k2, http.StatusTooManyRequests}} {
			if res := b.do(http.MethodGet, "/v1/StandingData", tc.token, nil); res.status != tc.want {
				t.Errorf("%s after the burst: %d, want %d", tc.user, res.status, tc.want)
			}
		}
	})
}
