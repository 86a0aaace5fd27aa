package auth

import (
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// signIn posts a password grant for name from addr.
func signIn(sb *Sandbox, addr, name, password string) (*httptest.ResponseRecorder, error) {
	form := url.Values{"grant_type": {"password"}, "username": {name}, "password": {password}}
	r := httptest.NewRequest("POST", PathToken, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = addr + ":4000"
	w := httptest.NewRecorder()
	return w, sb.Token(w, r)
}

func kindOf(err error) livestock.Kind {
	if e, ok := err.(*livestock.Error); ok {
		return e.Kind
	}
	return livestock.KindInternal
}

// TestPasswordChecksBounded: when every password check is taken, a
// sign-in waits a short time and is then answered 503 with Retry-After.
func TestPasswordChecksBounded(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil, WithPasswordChecks(1))
		sb.checks <- struct{}{} // a check in progress
		start := time.Now()
		w, err := signIn(sb, "192.0.2.1", "keeper1", "keeper1")
		if kindOf(err) != livestock.KindUnavailable || w.Header().Get("Retry-After") == "" {
			t.Fatalf("sign-in with every check taken: %v, Retry-After %q; want KindUnavailable with Retry-After", err, w.Header().Get("Retry-After"))
		}
		if waited := time.Since(start); waited > 5*passwordWait {
			t.Errorf("sign-in waited %s for a check; want about %s", waited, passwordWait)
		}
		sb.checks.release()
		if _, err := signIn(sb, "192.0.2.1", "keeper1", "keeper1"); err != nil {
			t.Errorf("sign-in with a free check: %v", err)
		}
	})
}

// TestFailedSignInsThrottled: after freeFailures failures for a user
// name, or from an address, further sign-ins wait (429, Retry-After),
// even with the right password, until the back-off has passed.
func TestFailedSignInsThrottled(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		sb := newSandbox(t, s, testIssuer, func() time.Time { return now })

		// Per user name: each failure from another address.
		for i := range freeFailures {
			if _, err := signIn(sb, "192.0.2."+string(rune('1'+i)), "keeper1", "wrong"); kindOf(err) != livestock.KindInvalid {
				t.Fatalf("failure %d: %v; want KindInvalid (wrong password)", i+1, err)
			}
		}
		w, err := signIn(sb, "198.51.100.1", "keeper1", "keeper1")
		if kindOf(err) != livestock.KindTooMany || w.Header().Get("Retry-After") == "" {
			t.Fatalf("sign-in after %d failures for keeper1: %v, Retry-After %q; want KindTooMany with Retry-After",
				freeFailures, err, w.Header().Get("Retry-After"))
		}
		now = now.Add(firstBackoff)
		if _, err := signIn(sb, "198.51.100.1", "keeper1", "keeper1"); err != nil {
			t.Errorf("sign-in after the back-off: %v", err)
		}

		// Per address: each failure under another (unknown) name.
		for i := range freeFailures {
			if _, err := signIn(sb, "203.0.113.9", "nobody"+string(rune('a'+i)), "x"); kindOf(err) != livestock.KindInvalid {
				t.Fatalf("address failure %d: %v; want KindInvalid", i+1, err)
			}
		}
		if _, err := signIn(sb, "203.0.113.9", "keeper1", "keeper1"); kindOf(err) != livestock.KindTooMany {
			t.Errorf("sign-in from an address after %d failures: %v; want KindTooMany", freeFailures, err)
		}
		if _, err := signIn(sb, "198.51.100.1", "keeper1", "keeper1"); err != nil {
			t.Errorf("keeper1 from another address: %v; want signed in", err)
		}
	})
}

// wait is how long key must still wait at now; 0 means it may try.
func (t *throttle) wait(key string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return max(t.strikes[key].until.Sub(now), 0)
}

// TestThrottledBurst: sign-ins sent together once a user is throttled
// are let through one at a time: after the back-off, of a burst of wrong
// passwords one is checked and the rest wait, and so does the right
// password sent after them.
func TestThrottledBurst(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		sb := newSandbox(t, s, testIssuer, func() time.Time { return now }, WithPasswordChecks(8))
		for i := range freeFailures {
			if _, err := signIn(sb, "192.0.2."+string(rune('1'+i)), "keeper1", "wrong"); kindOf(err) != livestock.KindInvalid {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		now = now.Add(firstBackoff)
		const burst = 9
		kinds := make(chan livestock.Kind, burst)
		var wg sync.WaitGroup
		for i := range burst {
			wg.Go(func() {
				_, err := signIn(sb, "198.51.100."+strconv.Itoa(i+1), "keeper1", "wrong")
				kinds <- kindOf(err)
			})
		}
		wg.Wait()
		close(kinds)
		checked := 0
		for k := range kinds {
			if k != livestock.KindTooMany {
				checked++
			}
		}
		if checked != 1 {
			t.Errorf("a burst of %d sign-ins after the back-off: %d checked; want 1, the rest told to wait", burst, checked)
		}
		if _, err := signIn(sb, "198.51.100.99", "keeper1", "keeper1"); kindOf(err) != livestock.KindTooMany {
			t.Errorf("the right password after the burst: %v; want KindTooMany", err)
		}
	})
}

func TestThrottleBackoffAndBound(t *testing.T) {
	t.Parallel()
	th := newThrottle()
	now := time.Unix(0, 0)
	for range freeFailures - 1 {
		th.fail("k", now)
	}
	if got := th.wait("k", now); got != 0 {
		t.Errorf("wait after %d failures = %s; want 0 (still free)", freeFailures-1, got)
	}
	th.fail("k", now)
	if got := th.wait("k", now); got != firstBackoff {
		t.Errorf("wait after %d failures = %s; want %s: the next attempt waits", freeFailures, got, firstBackoff)
	}
	for range 3 {
		th.fail("k", now)
	}
	if got, want := th.wait("k", now), 8*firstBackoff; got != want {
		t.Errorf("wait after %d failures = %s; want %s (doubling)", freeFailures+3, got, want)
	}
	th.fail("k", now.Add(quietReset+time.Second))
	if got := th.wait("k", now.Add(quietReset+time.Second)); got != 0 {
		t.Errorf("wait after one failure following %s of quiet = %s; want 0 (failures forgotten)", quietReset, got)
	}
	for i := range maxStrikes + 10 {
		th.fail("n"+time.Duration(i).String(), now)
	}
	if n := len(th.strikes); n > maxStrikes {
		t.Errorf("throttle holds %d keys; want at most %d", n, maxStrikes)
	}
}

// TestPasswordChecksDefault: by default password checks take at most half
// the cores, at least one, so sign-ins always leave CPU to the rest.
func TestPasswordChecksDefault(t *testing.T) {
	for _, procs := range []int{1, 2, 3, 8} {
		old := runtime.GOMAXPROCS(procs)
		got := cap(newPasswordChecks(0))
		runtime.GOMAXPROCS(old)
		if want := max(1, procs/2); got != want {
			t.Errorf("GOMAXPROCS %d: %d checks at once; want %d", procs, got, want)
		}
	}
}
