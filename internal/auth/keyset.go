package auth

import (
	"context"
	"errors"
	"fmt"

	jose "github.com/go-jose/go-jose/v4"
)

// storeKeySet is the sandbox's oidc.KeySet: the public keys in the store.
// A token naming a kid it does not hold sends it back to the store (at most
// once a second), so a key added by another replica is trusted as soon as
// a token signed with it arrives.
type storeKeySet struct{ ring *keyring }

var errUnknownKey = errors.New("auth: no stored signing key verifies the token")

// VerifySignature checks jwt against the stored keys and returns its
// payload. The algorithm has already been checked by the Verifier.
func (k storeKeySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	jws, err := jose.ParseSigned(jwt, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return nil, fmt.Errorf("auth: parsing token: %w", err)
	}
	if len(jws.Signatures) != 1 {
		return nil, errors.New("auth: token must carry exactly one signature")
	}
	kid := jws.Signatures[0].Header.KeyID
	payload, ok, known := k.verify(jws, kid)
	if !ok && !known && k.ring.mayReload() {
		if err := k.ring.load(ctx); err != nil {
			return nil, err
		}
		payload, ok, _ = k.verify(jws, kid)
	}
	if !ok {
		return nil, errUnknownKey
	}
	return payload, nil
}

// verify tries the stored keys that match kid.
func (k storeKeySet) verify(jws *jose.JSONWebSignature, kid string) (payload []byte, ok, known bool) {
	public, _ := k.ring.current()
	return verifyWith(public, jws, kid)
}

// verifyWith tries the keys that match kid (every key when kid is empty).
// It reports whether the kid was known, so that a bad signature under a
// known kid does not send the key set to fetch its keys again (from the
// store, or from an external issuer).
func verifyWith(keys []jose.JSONWebKey, jws *jose.JSONWebSignature, kid string) (payload []byte, ok, known bool) {
	for _, key := range keys {
		if kid != "" && key.KeyID != kid {
			continue
		}
		known = kid != ""
		if p, err := jws.Verify(key); err == nil {
			return p, true, true
		}
	}
	return nil, false, known
}
