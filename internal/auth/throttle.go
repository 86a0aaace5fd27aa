package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// Limits on what password checks may cost the server. A bcrypt comparison
// costs 80 to 200 ms of CPU; without these, a few connections of wrong
// passwords slow every other request.
const (
	// passwordWait is how long a sign-in waits for a free password check
	// before it is answered 503: long enough for a short queue, never an
	// unbounded one.
	passwordWait = 500 * time.Millisecond
	// freeFailures is how many failed sign-ins a user name or an address
	// has before each further attempt must wait.
	freeFailures = 5
	// firstBackoff doubles with each failure beyond the free ones, up to
	// maxBackoff.
	firstBackoff = time.Second
	maxBackoff   = 5 * time.Minute
	// quietReset forgets a key's failures when it has had none for this
	// long, so that a developer's typos over a day never add up to a lockout.
	quietReset = 15 * time.Minute
	// maxStrikes bounds the throttle's memory when names or addresses are
	// made up by the thousand.
	maxStrikes = 10000
)

// retryError is the cause of a refusal that the caller may retry after
// wait; the handler turns it into Retry-After.
type retryError struct{ wait time.Duration }

func (e retryError) Error() string { return fmt.Sprintf("auth: retry after %s", e.wait) }

// setRetryAfter sets Retry-After when err asks the caller to wait.
func setRetryAfter(w http.ResponseWriter, err error) {
	var re retryError
	if errors.As(err, &re) {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int((re.wait+time.Second-1)/time.Second))))
	}
}

// errPasswordBusy refuses a sign-in when every password check is taken.
func errPasswordBusy() error {
	return &livestock.Error{Kind: livestock.KindUnavailable,
		Detail: "Too many sign-ins at once: retry after the time in Retry-After.",
		Fields: []livestock.FieldError{{Code: livestock.CodeOverloaded, Message: "every password check is in use"}},
		Err:    retryError{wait: time.Second}}
}

// errThrottled refuses a sign-in after too many failures.
func errThrottled(wait time.Duration) error {
	return &livestock.Error{Kind: livestock.KindTooMany,
		Detail: "Too many failed sign-ins: retry after the time in Retry-After.",
		Fields: []livestock.FieldError{{Code: livestock.CodeRateLimited, Message: "too many failed sign-ins for this user name or address"}},
		Err:    retryError{wait: wait}}
}

// passwordChecks runs at most n password checks at once (n defaults to
// half the cores, at least one), so sign-ins cannot take every CPU from
// the rest.
type passwordChecks chan struct{}

func newPasswordChecks(n int) passwordChecks {
	if n < 1 {
		n = max(1, runtime.GOMAXPROCS(0)/2)
	}
	return make(passwordChecks, n)
}

// acquire takes a check, waiting at most passwordWait; release gives it
// back.
func (c passwordChecks) acquire(ctx context.Context) error {
	select {
	case c <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(passwordWait)
	defer t.Stop()
	select {
	case c <- struct{}{}:
		return nil
	case <-t.C:
		return errPasswordBusy()
	case <-ctx.Done():
		return errPasswordBusy()
	}
}

func (c passwordChecks) release() { <-c }

// throttle counts failed sign-ins per key (a user name or a client
// address) and, from the freeFailures-th on, makes each attempt wait twice
// as long as the one before. It lives in each replica's memory: with R replicas
// an attacker gets at most R times the tries, still a handful a minute,
// while sharing it would put a database write on every wrong password,
// the very cost it is there to bound.
type throttle struct {
	mu      sync.Mutex
	strikes map[string]strike
}

type strike struct {
	failures int
	last     time.Time // the latest failure
	until    time.Time // no sign-in for the key before this
}

func newThrottle() *throttle { return &throttle{strikes: map[string]strike{}} }

// begin lets an attempt for keys at now through, or says how long it
// must wait. One let through is counted failed at once, under the same
// lock, until it proves good (pardon): counted after its check, a burst
// of attempts sent together all passed before the first had failed.
func (t *throttle) begin(now time.Time, keys ...string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		wait = max(wait, t.strikes[k].until.Sub(now))
	}
	if wait > 0 {
		return wait
	}
	for _, k := range keys {
		t.failLocked(k, now)
	}
	return 0
}

// pardon takes back the failure begin counted for key, for an attempt
// that proved good or was never compared. A wait it set stays only while
// the failures still reach freeFailures.
func (t *throttle) pardon(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.strikes[key]
	if !ok {
		return
	}
	if s.failures--; s.failures < freeFailures {
		s.until = time.Time{}
	}
	t.strikes[key] = s
}

// fail records a failed sign-in for key at now.
func (t *throttle) fail(key string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failLocked(key, now)
}

func (t *throttle) failLocked(key string, now time.Time) {
	s := t.strikes[key]
	if now.Sub(s.last) > quietReset {
		s.failures = 0
	}
	s.failures++
	s.last = now
	if s.failures >= freeFailures {
		d := maxBackoff
		if n := s.failures - freeFailures; n < 20 {
			d = min(maxBackoff, firstBackoff<<n)
		}
		s.until = now.Add(d)
	}
	if _, ok := t.strikes[key]; !ok && len(t.strikes) >= maxStrikes {
		t.sweep(now)
	}
	t.strikes[key] = s
}

// forget clears key's failures after a good sign-in.
func (t *throttle) forget(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.strikes, key)
}

// sweep drops keys whose wait ended long ago (or never began), and, if
// the table is still full, any keys: losing some counts under a flood of
// made-up names is better than growing without bound.
func (t *throttle) sweep(now time.Time) {
	for k, s := range t.strikes {
		if now.Sub(s.last) > quietReset {
			delete(t.strikes, k)
		}
	}
	for k := range t.strikes {
		if len(t.strikes) < maxStrikes {
			break
		}
		delete(t.strikes, k)
	}
}

// clientAddr is the address a request came from, without its port.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
