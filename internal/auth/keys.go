package auth

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/drover-registry/drover/internal/store"
)

// keyring is the sandbox's view of the signing keys in the store. Every
// replica trusts every stored key and signs with the oldest, so replicas
// that raced to create the first key still converge on one.
type keyring struct {
	store interface {
		SigningKeys(ctx context.Context) ([]store.SigningKey, error)
	}

	mu         sync.Mutex
	public     []jose.JSONWebKey // oldest first
	signing    jose.JSONWebKey   // the oldest private key
	lastReload time.Time         // wall clock, for the reload rate limit
}

// reloadEvery bounds how often an unknown kid sends us to the store, so a
// stream of forged kids cannot hammer the database.
const reloadEvery = time.Second

// load reads every stored key, replacing what the ring held.
func (k *keyring) load(ctx context.Context) error {
	stored, err := k.store.SigningKeys(ctx)
	if err != nil {
		return fmt.Errorf("auth: loading signing keys: %w", err)
	}
	slices.SortFunc(stored, func(a, b store.SigningKey) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	var public []jose.JSONWebKey
	var signing jose.JSONWebKey
	for i, sk := range stored {
		var jwk jose.JSONWebKey
		if err := json.Unmarshal(sk.PrivateJWK, &jwk); err != nil {
			return fmt.Errorf("auth: signing key %q: %w", sk.ID, err)
		}
		if _, ok := jwk.Key.(*ecdsa.PrivateKey); !ok || jwk.KeyID != sk.ID {
			return fmt.Errorf("auth: signing key %q is not an EC private key with its kid", sk.ID)
		}
		if i == 0 {
			signing = jwk
		}
		public = append(public, jwk.Public())
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.public, k.signing = public, signing
	return nil
}

// current returns the public keys and the signing key.
func (k *keyring) current() ([]jose.JSONWebKey, jose.JSONWebKey) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.public, k.signing
}

// mayReload reports whether a reload is allowed now, and if so counts it.
func (k *keyring) mayReload() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if now := time.Now(); now.Sub(k.lastReload) >= reloadEvery {
		k.lastReload = now
		return true
	}
	return false
}

// newSigningKey makes a P-256 key with a random kid, as the store keeps it.
func newSigningKey(now time.Time) (store.SigningKey, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return store.SigningKey{}, fmt.Errorf("auth: generating signing key: %w", err)
	}
	kid := rand.Text()
	b, err := json.Marshal(jose.JSONWebKey{Key: priv, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"})
	if err != nil {
		return store.SigningKey{}, fmt.Errorf("auth: encoding signing key: %w", err)
	}
	return store.SigningKey{ID: kid, Algorithm: string(jose.ES256), PrivateJWK: b, CreatedAt: now}, nil
}
