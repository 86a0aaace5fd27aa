package auth

import (
	"context"
	"fmt"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/drover-registry/drover/internal/livestock"
)

// NewRemoteKeys discovers an external issuer (OpenID Connect discovery at
// {issuer}/.well-known/openid-configuration) and returns its key set. The
// set caches the issuer's JWKS and fetches it again when a token names a
// key it does not know, which is how the issuer's key rotation is picked
// up. Hand it to NewVerifier with the same issuer.
//
// The context configures the key set's HTTP client (see
// oidc.ClientContext); its cancellation ends only the discovery request.
func NewRemoteKeys(ctx context.Context, issuer string) (oidc.KeySet, error) {
	p, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		return nil, &livestock.Error{
			Kind:   livestock.KindUnavailable,
			Detail: "The token issuer cannot be reached.",
			Err:    fmt.Errorf("auth: discovering issuer %q: %w", issuer, err),
		}
	}
	var meta struct {
		JWKSURI string `json:"jwks_uri"`
	}
	if err := p.Claims(&meta); err != nil || meta.JWKSURI == "" {
		return nil, fmt.Errorf("auth: issuer %q publishes no jwks_uri (%v)", issuer, err)
	}
	return oidc.NewRemoteKeySet(ctx, meta.JWKSURI), nil
}
