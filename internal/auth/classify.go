package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/drover-registry/drover/internal/livestock"
)

// go-oidc reports most failures as plain strings. Rather than match them,
// the Verifier checks the token's shape and algorithm itself first, and
// wraps the KeySet to learn whether the signature held; a failure after a
// good signature is then one of the claim checks, found by reading the
// (now trusted) claims.

// nbfLeeway is the clock skew go-oidc allows on the nbf claim.
const nbfLeeway = 5 * time.Minute

// checkShape refuses what is not a compact JWS with an accepted algorithm
// and a type an access token may carry.
func checkShape(raw string) *livestock.Error {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
		return unauthenticated(livestock.CodeUnauthenticated, reasonMalformed, nil)
	}
	var segs [3][]byte
	for i, p := range parts {
		b, err := base64.RawURLEncoding.DecodeString(p)
		if err != nil {
			return unauthenticated(livestock.CodeUnauthenticated, reasonMalformed, err)
		}
		segs[i] = b
	}
	var h struct {
		Alg string `json:"alg"`
		Typ string `json:"typ"`
	}
	if err := json.Unmarshal(segs[0], &h); err != nil {
		return unauthenticated(livestock.CodeUnauthenticated, reasonMalformed, err)
	}
	switch {
	case strings.EqualFold(h.Alg, "none"):
		return unauthenticated(livestock.CodeUnauthenticated, reasonAlgNone, nil)
	case !slices.Contains(supportedAlgs, h.Alg):
		return unauthenticated(livestock.CodeUnauthenticated, reasonAlgorithm, fmt.Errorf("alg %q", h.Alg))
	case !acceptedType(h.Typ):
		return unauthenticated(livestock.CodeUnauthenticated, reasonNotAccess, fmt.Errorf("typ %q", h.Typ))
	}
	return nil
}

// trace records what the KeySet made of one token.
type trace struct {
	called   bool   // the signature was checked at all
	err      error  // the KeySet's error
	payload  []byte // the verified payload, when err is nil
	verified bool
}

type traceKey struct{}

// tracingKeySet passes to the real KeySet and notes the outcome in the
// trace carried by the context (go-oidc passes our context through).
type tracingKeySet struct{ keys oidc.KeySet }

func (k tracingKeySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	payload, err := k.keys.VerifySignature(ctx, jwt)
	if tr, ok := ctx.Value(traceKey{}).(*trace); ok {
		tr.called, tr.err, tr.payload, tr.verified = true, err, payload, err == nil
	}
	return payload, err
}

// explain turns a go-oidc failure into the reason the token was refused.
func (v *Verifier) explain(err error, tr *trace) error {
	var expired *oidc.TokenExpiredError
	switch {
	case errors.As(err, &expired) && expired.Expiry.IsZero(): // go-oidc reads a missing exp as long expired
		return unauthenticated(livestock.CodeUnauthenticated, reasonNoExpiry, err)
	case errors.As(err, &expired):
		return unauthenticated(livestock.CodeUnauthenticated, reasonExpired, err)
	case !tr.called:
		return unauthenticated(livestock.CodeUnauthenticated, reasonMalformed, err)
	case !tr.verified:
		if k := livestock.ErrorKind(tr.err); k == livestock.KindUnavailable {
			return fmt.Errorf("auth: loading signing keys: %w", tr.err)
		}
		return unauthenticated(livestock.CodeUnauthenticated, reasonSignature, err)
	}
	var c struct {
		Issuer    string           `json:"iss"`
		Audience  jwt.Audience     `json:"aud"`
		NotBefore *jwt.NumericDate `json:"nbf"`
	}
	if json.Unmarshal(tr.payload, &c) != nil {
		return unauthenticated(livestock.CodeUnauthenticated, reasonMalformed, err)
	}
	switch {
	case c.Issuer != v.issuer:
		return unauthenticated(livestock.CodeUnauthenticated, reasonIssuer, err)
	case !c.Audience.Contains(v.audience):
		return unauthenticated(livestock.CodeUnauthenticated, reasonAudience, err)
	case c.NotBefore != nil && v.now().Add(nbfLeeway).Before(c.NotBefore.Time()):
		return unauthenticated(livestock.CodeUnauthenticated, reasonNotYetValid, err)
	}
	return unauthenticated(livestock.CodeUnauthenticated, reasonUnrecognised, err)
}
