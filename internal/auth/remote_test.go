package auth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// fakeIssuer is an external OpenID provider: discovery and a JWKS of RSA
// keys that the test can rotate.
type fakeIssuer struct {
	*httptest.Server
	mu      sync.Mutex
	keys    []jose.JSONWebKey // private; published as public
	fetches int               // of the JWKS
	failing bool              // the JWKS answers 500
	stalled chan struct{}     // while not nil, every request waits for it to close
	midBody bool              // a stalled JWKS sends its headers and the body's start first
}

// stall makes the issuer accept requests and answer none until the
// returned function is called.
func (f *fakeIssuer) stall() (resume func()) {
	c := make(chan struct{})
	f.mu.Lock()
	f.stalled = c
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		f.stalled = nil
		f.mu.Unlock()
		close(c)
	}
}

// wait holds a request while the issuer is stalled.
func (f *fakeIssuer) wait(r *http.Request) {
	f.mu.Lock()
	c := f.stalled
	f.mu.Unlock()
	if c != nil {
		select {
		case <-c:
		case <-r.Context().Done():
		}
	}
}

// add publishes one more RSA key beside the others, returned.
func (f *fakeIssuer) add(t *testing.T, kid string) jose.JSONWebKey {
	f.mu.Lock()
	old := f.keys
	f.mu.Unlock()
	k := f.rotate(t, kid)
	f.mu.Lock()
	f.keys = append(old, k)
	f.mu.Unlock()
	return k
}

func newFakeIssuer(t *testing.T) *fakeIssuer {
	f := &fakeIssuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		f.wait(r)
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": f.URL, "jwks_uri": f.URL + "/keys", "authorization_endpoint": f.URL + "/authorize",
			"token_endpoint": f.URL + "/token", "id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		midBody := f.midBody && f.stalled != nil
		f.mu.Unlock()
		if midBody {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"keys":[`))
			w.(http.Flusher).Flush()
		}
		f.wait(r)
		f.mu.Lock()
		defer f.mu.Unlock()
		f.fetches++
		if f.failing {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		var set jose.JSONWebKeySet
		for _, k := range f.keys {
			set.Keys = append(set.Keys, k.Public())
		}
		json.NewEncoder(w).Encode(set)
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// rotate replaces the published keys with one new RSA key, returned.
func (f *fakeIssuer) rotate(t *testing.T, kid string) jose.JSONWebKey {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	k := jose.JSONWebKey{Key: priv, KeyID: kid, Algorithm: string(jose.RS256), Use: "sig"}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys = []jose.JSONWebKey{k}
	return k
}

func (f *fakeIssuer) sign(t *testing.T, key jose.JSONWebKey, sub string) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tok, err := jwt.Signed(signer).Claims(jwt.Claims{
		Issuer: f.URL, Subject: sub, Audience: jwt.Audience{"drover-api", "other"},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Hour)),
	}).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestRemoteIssuer runs production mode against a fake external issuer:
// discovery, RS256 tokens, and a key rotation picked up on the next token.
func TestRemoteIssuer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		f := newFakeIssuer(t)
		k1 := f.rotate(t, "k1")
		keys, err := NewRemoteKeys(t.Context(), f.URL, nil)
		if err != nil {
			t.Fatalf("NewRemoteKeys: %v", err)
		}
		v := NewVerifier(f.URL, "drover-api", keys, s)
		// Without the token cache, which would keep answering for a token
		// verified before its key was withdrawn for up to DefaultCacheTTL
		// (TestVerifierCache bounds that): here the key set is under test.
		v.SetCacheTTL(0)

		check := func(name, tok string, want authFailure) {
			t.Helper()
			u, err := v.Verify(t.Context(), tok)
			if want.Fields == nil {
				if err != nil || u.Name != "keeper1" {
					t.Errorf("%s: Verify = %q, %v; want keeper1", name, u.Name, err)
				}
				return
			}
			if diff := cmp.Diff(want, failureOf(err)); diff != "" {
				t.Errorf("%s: refusal mismatch (-want +got):\n%s", name, diff)
			}
		}
		check("key 1", f.sign(t, k1, "keeper1"), authFailure{})
		check("unknown subject", f.sign(t, k1, "stranger"), refused(livestock.CodeUnknownUser, reasonUnknownUser))

		k2 := f.rotate(t, "k2")
		check("key 2 after rotation", f.sign(t, k2, "keeper1"), authFailure{})
		// go-oidc hands the new key set to the waiting verification before it
		// swaps its cache, so for a moment after a rotation the withdrawn key
		// may still verify; it must stop doing so promptly.
		withdrawn := f.sign(t, k1, "keeper1")
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if _, err := v.Verify(t.Context(), withdrawn); err != nil {
				break
			}
		}
		check("key 1 after it was withdrawn", withdrawn, refused(livestock.CodeUnauthenticated, reasonSignature))
		check("sandbox token", forge(t, "k2", jwt.Claims{Issuer: f.URL, Subject: "keeper1", Audience: jwt.Audience{"drover-api"},
			Expiry: jwt.NewNumericDate(time.Now().Add(time.Hour))}), refused(livestock.CodeUnauthenticated, reasonSignature))
	})

	t.Run("issuer down", func(t *testing.T) {
		t.Parallel()
		f := newFakeIssuer(t)
		f.Close()
		_, err := NewRemoteKeys(t.Context(), f.URL, nil)
		if k := livestock.ErrorKind(err); k != livestock.KindUnavailable {
			t.Errorf("NewRemoteKeys(closed server) kind = %v (%v), want unavailable", k, err)
		}
	})
}

// remoteSet is a key set on f's JWKS with a client that gives up after
// timeout and the clock now, already holding f's keys.
func remoteSet(t *testing.T, f *fakeIssuer, timeout time.Duration, now func() time.Time) *remoteKeySet {
	t.Helper()
	k := newRemoteKeySet(f.URL+"/keys", &http.Client{Timeout: timeout}, now, nil)
	if err := k.refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	return k
}

// A stalled issuer costs a token whose key is unknown a bounded wait and a
// 503, and once the issuer answers again its new keys are found: the
// stalled fetch does not hold every later one.
func TestRemoteKeysStalledIssuer(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	k1 := f.rotate(t, "k1")
	keys := remoteSet(t, f, 200*time.Millisecond, time.Now)
	resume := f.stall()
	k3 := f.add(t, "k3")
	start := time.Now()
	_, err := keys.VerifySignature(t.Context(), f.sign(t, k3, "keeper1"))
	if k := livestock.ErrorKind(err); k != livestock.KindUnavailable || time.Since(start) > 3*time.Second {
		t.Errorf("unknown key while the issuer stalls: %v (kind %v) after %s; want unavailable within 3s", err, k, time.Since(start))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the issuer's timeout reads as the request's own deadline (a 504, not a 503): %v", err)
	}
	if _, err := keys.VerifySignature(t.Context(), f.sign(t, k1, "keeper1")); err != nil {
		t.Errorf("a key already held stopped verifying while the issuer stalled: %v", err)
	}
	resume()
	if _, err := keys.VerifySignature(t.Context(), f.sign(t, k3, "keeper1")); err != nil {
		t.Errorf("the new key once the issuer answers again: %v", err)
	}
}

// A key the issuer withdraws stops verifying once the keys held are
// JWKSMaxAge old, though no token has named an unknown key.
func TestRemoteKeysWithdrawnKeyExpires(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	k1 := f.rotate(t, "k1")
	clock := newTestClock()
	keys := remoteSet(t, f, time.Second, clock.now)
	f.rotate(t, "k2") // k1 withdrawn
	tok := f.sign(t, k1, "keeper1")
	if _, err := keys.VerifySignature(t.Context(), tok); err != nil {
		t.Fatalf("within JWKSMaxAge the key held still verifies: %v", err)
	}
	clock.advance(JWKSMaxAge + time.Second)
	// The first token after JWKSMaxAge starts a fetch it does not wait
	// for; the key stops verifying once that fetch is in.
	var err error
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err = keys.VerifySignature(t.Context(), tok); err != nil {
			break
		}
	}
	if !errors.Is(err, errUnknownKey) {
		t.Errorf("a withdrawn key after JWKSMaxAge: %v, want %v", err, errUnknownKey)
	}
}

// While the issuer stalls, a token whose key is held verifies at once,
// though the keys are older than JWKSMaxAge: their refresh is not its wait.
func TestRemoteKeysStaleCacheDoesNotWait(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	k1 := f.rotate(t, "k1")
	clock := newTestClock()
	keys := remoteSet(t, f, 2*time.Second, clock.now)
	defer f.stall()()
	clock.advance(JWKSMaxAge + time.Second)
	for i := range 3 {
		start := time.Now()
		if _, err := keys.VerifySignature(t.Context(), f.sign(t, k1, "keeper1")); err != nil || time.Since(start) > 500*time.Millisecond {
			t.Errorf("token %d with a held key while the issuer stalls: %v after %s; want it verified at once", i, err, time.Since(start))
		}
	}
}

// An issuer that answers 500 makes a token whose key is unknown a 503
// through the Verifier, not a 401 telling the client its token is bad.
func TestRemoteKeysIssuerFailing(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	f.rotate(t, "k1")
	keys := remoteSet(t, f, time.Second, time.Now)
	k2 := f.add(t, "k2")
	f.mu.Lock()
	f.failing = true
	f.mu.Unlock()
	v := NewVerifier(f.URL, "drover-api", keys, nil)
	_, err := v.Verify(t.Context(), f.sign(t, k2, "keeper1"))
	if k := livestock.ErrorKind(err); k != livestock.KindUnavailable {
		t.Errorf("unknown key while the JWKS answers 500: %v (kind %v), want unavailable", err, k)
	}
}

// Tokens naming unknown keys cost the issuer at most one fetch a second.
func TestRemoteKeysFetchAtMostOnceASecond(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	f.rotate(t, "k1")
	keys := remoteSet(t, f, time.Second, time.Now)
	forged := forge(t, "nobody", jwt.Claims{Subject: "keeper1"})
	var wg sync.WaitGroup
	start := time.Now()
	for range 40 {
		wg.Go(func() { _, _ = keys.VerifySignature(t.Context(), forged) })
	}
	wg.Wait()
	f.mu.Lock()
	fetches := f.fetches - 1 // the first, by remoteSet
	f.mu.Unlock()
	if limit := 1 + int(time.Since(start)/time.Second); fetches > limit {
		t.Errorf("40 tokens with an unknown key made %d fetches in %s; want at most %d", fetches, time.Since(start), limit)
	}
}

// An issuer that stalls after its headers, in the middle of the JWKS, is
// at fault as one that never answers: a 503, not the request's own
// deadline (a 504).
func TestRemoteKeysIssuerStallsMidBody(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	f.rotate(t, "k1")
	keys := remoteSet(t, f, 200*time.Millisecond, time.Now)
	f.mu.Lock()
	f.midBody = true
	f.mu.Unlock()
	defer f.stall()()
	k2 := f.add(t, "k2")
	_, err := keys.VerifySignature(t.Context(), f.sign(t, k2, "keeper1"))
	if k := livestock.ErrorKind(err); k != livestock.KindUnavailable || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("unknown key while the JWKS stalls mid-body: %v (kind %v); want unavailable, not a deadline", err, k)
	}
}

// While the issuer fails, a token beyond the waiters whose key is not held
// is still the issuer's fault (a 503), as a waiting one's is.
func TestRemoteKeysWaitersFullWhileIssuerFails(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	f.rotate(t, "k1")
	keys := remoteSet(t, f, 5*time.Second, time.Now)
	f.mu.Lock()
	f.failing = true
	f.mu.Unlock()
	forged := forge(t, "nobody", jwt.Claims{Subject: "keeper1"})
	if _, err := keys.VerifySignature(t.Context(), forged); livestock.ErrorKind(err) != livestock.KindUnavailable {
		t.Fatalf("unknown key while the JWKS answers 500: %v, want unavailable", err)
	}
	defer f.stall()()
	for range maxKeyWaiters {
		go func() { _, _ = keys.VerifySignature(t.Context(), forged) }()
	}
	for deadline := time.Now().Add(5 * time.Second); len(keys.waiters) < maxKeyWaiters; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d tokens wait, want %d", len(keys.waiters), maxKeyWaiters)
		}
	}
	if _, err := keys.VerifySignature(t.Context(), forged); livestock.ErrorKind(err) != livestock.KindUnavailable {
		t.Errorf("a token beyond the waiters while the issuer fails: %v, want unavailable", err)
	}
}

// Tokens naming a key not held wait for a fetch maxKeyWaiters at a time;
// while that many wait (the issuer stalls), the next is told at once that
// its key is unknown, so a flood of them cannot hold every admitted
// request. Once the issuer answers, the new key is found.
func TestRemoteKeysWaitersBounded(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	f.rotate(t, "k1")
	keys := remoteSet(t, f, 10*time.Second, time.Now)
	resume := f.stall()
	forged := forge(t, "nobody", jwt.Claims{Subject: "keeper1"})
	var wg sync.WaitGroup
	for range maxKeyWaiters {
		wg.Go(func() { _, _ = keys.VerifySignature(t.Context(), forged) })
	}
	for deadline := time.Now().Add(5 * time.Second); len(keys.waiters) < maxKeyWaiters; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d tokens wait for the stalled issuer, want %d", len(keys.waiters), maxKeyWaiters)
		}
	}
	if _, err := keys.VerifySignature(t.Context(), forged); !errors.Is(err, errUnknownKey) {
		t.Errorf("a token beyond the waiters: %v, want %v at once", err, errUnknownKey)
	}
	k2 := f.add(t, "k2")
	resume()
	wg.Wait()
	if _, err := keys.VerifySignature(t.Context(), f.sign(t, k2, "keeper1")); err != nil {
		t.Errorf("the new key once the issuer answers again: %v", err)
	}
}

// Discovery that never answers fails start-up within the issuer timeout.
func TestNewRemoteKeysStalledDiscovery(t *testing.T) {
	t.Parallel()
	f := newFakeIssuer(t)
	defer f.stall()()
	start := time.Now()
	_, err := NewRemoteKeys(t.Context(), f.URL, nil)
	if k := livestock.ErrorKind(err); k != livestock.KindUnavailable || time.Since(start) > issuerTimeout+2*time.Second {
		t.Errorf("stalled discovery: %v (kind %v) after %s; want unavailable within %s", err, k, time.Since(start), issuerTimeout)
	}
}

// testClock is a clock the test moves on by hand; the key set's fetches
// read it from other goroutines.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock { return &testClock{t: time.Now()} }

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
