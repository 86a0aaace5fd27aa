package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"

	"github.com/drover-registry/drover/internal/livestock"
)

// An external issuer's keys (production mode) are fetched from its JWKS
// and cached. go-oidc's own remote key set fetched them with no time limit
// (a stalled issuer held its one fetch, and with it every later key
// rotation, until a restart), fetched again for every token naming an
// unknown key, kept a withdrawn key for as long as no token failed, and
// made an unreachable issuer a 401. This one bounds each fetch, fetches at
// most once a second, refreshes the cache when it is older than
// JWKSMaxAge, and answers 503 when a token's key cannot be fetched.

// JWKSMaxAge is how long a fetched JWKS is used before it is fetched
// again: a key the issuer withdraws stops being trusted within this time.
const JWKSMaxAge = time.Minute

// jwksStaleLimit is how long the keys last fetched are still used while
// the issuer cannot be reached: past it, every token is a 503. Tokens
// last an hour, so keys an hour old still verify the tokens in use.
const jwksStaleLimit = time.Hour

// issuerTimeout bounds each request to the issuer: discovery and JWKS.
const issuerTimeout = 5 * time.Second

// maxJWKS is the largest JWKS read.
const maxJWKS = 1 << 20

// maxKeyWaiters is how many tokens naming a key not held may wait at once
// for the JWKS to be fetched again. The rest are told at once that the key
// is unknown (a fetch is still begun): a flood of such tokens, which need
// no account, would otherwise hold every admitted request for up to a
// second and leave no room for users with good tokens.
const maxKeyWaiters = 4

// NewRemoteKeys discovers an external issuer (OpenID Connect discovery at
// {issuer}/.well-known/openid-configuration), fetches its JWKS once, and
// returns the key set to hand to NewVerifier with the same issuer. Fetch
// failures later are logged to log. An issuer that cannot be reached, or
// does not answer within issuerTimeout, is a KindUnavailable error.
func NewRemoteKeys(ctx context.Context, issuer string, log *slog.Logger) (oidc.KeySet, error) {
	client := &http.Client{Timeout: issuerTimeout}
	dctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, client), issuerTimeout)
	defer cancel()
	p, err := oidc.NewProvider(dctx, issuer)
	if err != nil {
		return nil, &livestock.Error{
			Kind:   livestock.KindUnavailable,
			Detail: "the token issuer's discovery document could not be read",
			Err:    fmt.Errorf("auth: discovering issuer %q: %w", issuer, err),
		}
	}
	var meta struct {
		JWKSURI string `json:"jwks_uri"`
	}
	if err := p.Claims(&meta); err != nil || meta.JWKSURI == "" {
		return nil, fmt.Errorf("auth: issuer %q publishes no jwks_uri (%v)", issuer, err)
	}
	k := newRemoteKeySet(meta.JWKSURI, client, time.Now, log)
	if err := k.refresh(ctx); err != nil {
		return nil, unavailableKeys(err)
	}
	return k, nil
}

// remoteKeySet is an issuer's JWKS, cached; an oidc.KeySet.
type remoteKeySet struct {
	url    string
	client *http.Client
	now    func() time.Time
	log    *slog.Logger

	waiters chan struct{} // a place for each token waiting for a fetch (maxKeyWaiters)

	mu        sync.Mutex
	keys      []jose.JSONWebKey
	fetchedAt time.Time     // when keys were fetched; zero before the first success
	tried     time.Time     // when the last fetch began, for the once-a-second limit
	lastErr   error         // of the last fetch; nil when it succeeded
	fetching  chan struct{} // closed when the fetch under way ends; nil when none is
}

func newRemoteKeySet(url string, client *http.Client, now func() time.Time, log *slog.Logger) *remoteKeySet {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &remoteKeySet{url: url, client: client, now: now, log: log, waiters: make(chan struct{}, maxKeyWaiters)}
}

// VerifySignature checks jwt against the issuer's keys and returns its
// payload. A token naming a key the cache lacks waits for the set to go
// back to the issuer (at most once a second), unless maxKeyWaiters wait
// already; one met when the cache is older than JWKSMaxAge starts a fetch
// that no token waits for. The algorithm has already been checked by the
// Verifier.
func (k *remoteKeySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	jws, err := jose.ParseSigned(jwt, []jose.SignatureAlgorithm{jose.RS256, jose.PS256, jose.ES256})
	if err != nil {
		return nil, fmt.Errorf("auth: parsing token: %w", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("auth: token must carry exactly one signature")
	}
	kid := jws.Signatures[0].Header.KeyID
	if k.age() > JWKSMaxAge {
		// In the background: no token waits for it, and while the issuer
		// is out of reach the keys held keep verifying (up to
		// jwksStaleLimit).
		k.startFetch()
	}
	var fetchErr error
	payload, ok, known := k.verify(jws, kid)
	if !ok && !known {
		select {
		case k.waiters <- struct{}{}:
			fetchErr = k.refresh(ctx)
			<-k.waiters
			payload, ok, _ = k.verify(jws, kid)
		default:
			k.startFetch()
			fetchErr = k.err() // while the issuer fails, a key not held is its fault (a 503), not the token's
		}
	}
	switch {
	case k.age() > jwksStaleLimit: // the issuer has been out of reach too long
		return nil, unavailableKeys(k.err())
	case ok:
		return payload, nil
	case !known && fetchErr != nil: // its key may be one the issuer could not tell us of
		return nil, unavailableKeys(fetchErr)
	}
	return nil, errUnknownKey
}

// verify tries the keys held that match kid.
func (k *remoteKeySet) verify(jws *jose.JSONWebSignature, kid string) (payload []byte, ok, known bool) {
	k.mu.Lock()
	keys := k.keys
	k.mu.Unlock()
	return verifyWith(keys, jws, kid)
}

// age is how long ago the keys held were fetched.
func (k *remoteKeySet) age() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fetchedAt.IsZero() {
		return jwksStaleLimit + 1
	}
	return k.now().Sub(k.fetchedAt)
}

func (k *remoteKeySet) err() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.lastErr
}

// refresh fetches the JWKS again, or joins the fetch under way, and
// returns the fetch's error. Fetches begin at least a second apart: within
// a second of the last one, refresh waits for the second to pass (a key
// rotated in just after a fetch is then still found), so a stream of
// tokens naming unknown keys costs the issuer one fetch a second. The
// fetch itself is not ended by ctx (others may be waiting for it) but by
// the client's timeout; ctx ends only this caller's wait.
func (k *remoteKeySet) refresh(ctx context.Context) error {
	k.mu.Lock()
	done, tried := k.fetching, k.tried
	k.mu.Unlock()
	if done == nil {
		if wait := reloadEvery - k.now().Sub(tried); !tried.IsZero() && wait > 0 {
			if err := sleep(ctx, wait); err != nil {
				return err
			}
		}
		k.mu.Lock()
		switch {
		case k.fetching != nil: // begun by another while this one waited
			done = k.fetching
		case k.tried != tried: // begun and ended by another meanwhile
			err := k.lastErr
			k.mu.Unlock()
			return err
		default:
			done = k.begin()
		}
		k.mu.Unlock()
	}
	select {
	case <-done:
		return k.err()
	case <-ctx.Done():
		return fmt.Errorf("auth: waiting for the issuer's keys: %w", ctx.Err())
	}
}

// startFetch begins a fetch without waiting for it, unless one is under
// way or the last began less than a second ago.
func (k *remoteKeySet) startFetch() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fetching == nil && (k.tried.IsZero() || k.now().Sub(k.tried) >= reloadEvery) {
		k.begin()
	}
}

// begin starts a fetch and returns the channel closed when it ends. k.mu
// is held.
func (k *remoteKeySet) begin() chan struct{} {
	k.tried, k.fetching = k.now(), make(chan struct{})
	go k.fetch(k.fetching)
	return k.fetching
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("auth: waiting for the issuer's keys: %w", ctx.Err())
	}
}

// fetch gets the JWKS and, if it can be read, replaces the keys held.
func (k *remoteKeySet) fetch(done chan struct{}) {
	keys, err := k.get()
	if err != nil {
		k.log.Warn("auth: fetching the issuer's keys", slog.String("jwks_uri", k.url), slog.Any("error", err))
	}
	k.mu.Lock()
	if err == nil {
		k.keys, k.fetchedAt = keys, k.now()
	}
	k.lastErr, k.fetching = err, nil
	k.mu.Unlock()
	close(done)
}

// get reads the JWKS: its signing keys, public ones only.
func (k *remoteKeySet) get() ([]jose.JSONWebKey, error) {
	req, err := http.NewRequest(http.MethodGet, k.url, nil) // bounded by the client's Timeout
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := k.client.Do(req)
	if err != nil {
		// Not wrapped: the client's timeout would read as the request's
		// own deadline (a 504), where the issuer is at fault (a 503).
		return nil, fmt.Errorf("auth: fetching %s: %v", k.url, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("auth: %s answered %s", k.url, res.Status)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(io.LimitReader(res.Body, maxJWKS)).Decode(&set); err != nil {
		return nil, fmt.Errorf("auth: reading %s: %v", k.url, err) // not wrapped, as client.Do's error
	}
	var keys []jose.JSONWebKey
	for _, key := range set.Keys {
		if key.Use != "enc" && key.IsPublic() && key.Valid() {
			keys = append(keys, key)
		}
	}
	return keys, nil
}

// unavailableKeys is the error of a token whose key could not be fetched:
// the issuer, not the token, is at fault, so the answer is a 503.
func unavailableKeys(err error) error {
	return &livestock.Error{
		Kind:   livestock.KindUnavailable,
		Detail: "the token issuer's signing keys cannot be fetched",
		Err:    err,
	}
}
