package auth

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// DefaultCacheTTL is how long a verified token's user is reused before
// the token is checked and the user read again.
//
// A client sends the same token for up to an hour, often many times a
// second; checking its signature and reading its user on every request was
// about 40% of the server's CPU under load. The signature of a token
// cannot change, so only the user record can go stale: a change to a
// user's holdings or roles takes effect within this time on each replica.
const DefaultCacheTTL = 5 * time.Second

// maxCached bounds the tokens remembered: past it, expired entries are
// swept, then arbitrary ones dropped, so a flood of distinct valid tokens
// costs memory in proportion to this, not to the flood.
const maxCached = 10_000

// tokenCache remembers the user each recently verified token speaks for,
// keyed by the token's SHA-256, until the earlier of the token's expiry
// and the cache lifetime. Refused tokens are never remembered.
type tokenCache struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[[sha256.Size]byte]cachedUser
}

type cachedUser struct {
	user  livestock.User
	until time.Time
}

func newTokenCache(ttl time.Duration) *tokenCache {
	return &tokenCache{ttl: ttl, m: make(map[[sha256.Size]byte]cachedUser)}
}

// get returns the user of raw if it was verified and is still fresh at now.
func (c *tokenCache) get(raw string, now time.Time) (livestock.User, bool) {
	if c.ttl <= 0 {
		return livestock.User{}, false
	}
	k := sha256.Sum256([]byte(raw))
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !now.Before(e.until) {
		return livestock.User{}, false
	}
	return e.user, true
}

// put remembers that raw, valid until expiry, speaks for u, as of now.
func (c *tokenCache) put(raw string, u livestock.User, expiry, now time.Time) {
	if c.ttl <= 0 {
		return
	}
	until := now.Add(c.ttl)
	if expiry.Before(until) {
		until = expiry
	}
	k := sha256.Sum256([]byte(raw))
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCached {
		c.sweep(now)
	}
	c.m[k] = cachedUser{user: u, until: until}
}

// sweep drops the stale entries, then as many others as it takes to leave
// room for a tenth of maxCached. The caller holds mu.
func (c *tokenCache) sweep(now time.Time) {
	for k, e := range c.m {
		if !now.Before(e.until) {
			delete(c.m, k)
		}
	}
	for k := range c.m {
		if len(c.m) < maxCached-maxCached/10 {
			break
		}
		delete(c.m, k)
	}
}
