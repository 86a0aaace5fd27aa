package auth

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// countingUsers counts the user look-ups a Verifier makes.
type countingUsers struct {
	UserLookup
	n int
}

func (c *countingUsers) UserBySubject(ctx context.Context, subject string) (livestock.User, error) {
	c.n++
	return c.UserLookup.UserBySubject(ctx, subject)
}

// TestVerifierCache: a verified token is answered from memory until the
// cache lifetime or the token's expiry, whichever is first; a refused one
// is checked again every time.
func TestVerifierCache(t *testing.T) {
	t.Parallel()
	s := storetest.OpenSQLite(t)
	seedKeeper(t, s)
	sb := newSandbox(t, s, testIssuer, nil)
	users := &countingUsers{UserLookup: s}
	v := NewVerifier(testIssuer, DefaultAudience, sb.Keys(), users)
	clock := time.Now()
	v.now = func() time.Time { return clock }
	good := passwordToken(t, sb).AccessToken

	verify := func(step, raw string, wantLookups int, wantOK bool) {
		t.Helper()
		_, err := v.Verify(context.Background(), raw)
		if (err == nil) != wantOK {
			t.Fatalf("%s: err = %v, want ok %v", step, err, wantOK)
		}
		if users.n != wantLookups {
			t.Fatalf("%s: %d user look-ups, want %d", step, users.n, wantLookups)
		}
	}
	verify("first use", good, 1, true)
	verify("again at once", good, 1, true)
	clock = clock.Add(DefaultCacheTTL - time.Millisecond)
	verify("just inside the lifetime", good, 1, true)
	clock = clock.Add(time.Millisecond)
	verify("at the lifetime", good, 2, true)
	clock = clock.Add(accessTokenLife)
	verify("past the token's expiry", good, 2, false)

	v.SetCacheTTL(0)
	clock = time.Now()
	verify("uncached", good, 3, true)
	verify("uncached again", good, 4, true)
}

// TestTokenCacheBounded: a flood of distinct tokens never holds more than
// maxCached entries.
func TestTokenCacheBounded(t *testing.T) {
	t.Parallel()
	c := newTokenCache(time.Minute)
	now := time.Now()
	for i := range maxCached * 3 {
		c.put(fmt.Sprint("token-", i), livestock.User{Name: "u"}, now.Add(time.Hour), now)
		if len(c.m) > maxCached {
			t.Fatalf("after %d tokens the cache holds %d, over %d", i+1, len(c.m), maxCached)
		}
	}
	if _, ok := c.get(fmt.Sprint("token-", maxCached*3-1), now); !ok {
		t.Error("the newest token is not cached")
	}
}
