package auth

import (
	"fmt"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/drover-registry/drover/internal/livestock"
)

// What makes a verified JWT an access token Drover accepts, beyond what
// go-oidc checks (signature, issuer, audience, exp, nbf): the issuer typed
// it as an access token, it was not issued in the future, and it does not
// live longer than the Verifier's maximum. A token signed by a trusted key
// is otherwise good for as long as its issuer wrote, and an ID token for
// the same audience would pass as an access token.

// DefaultMaxTokenLifetime is the longest lifetime (exp − iat) an access
// token may have unless SetMaxLifetime says otherwise. Common issuers
// give access tokens minutes to hours (the sandbox one hour, Auth0 at most
// a day), so a day refuses the token minted to last for years.
const DefaultMaxTokenLifetime = 24 * time.Hour

// SandboxTokenLifetime is the lifetime of the sandbox issuer's access
// tokens: a maximum below it would refuse them.
const SandboxTokenLifetime = accessTokenLife

// accessTokenType is the JOSE typ the sandbox issuer writes (RFC 9068 §2.1).
const accessTokenType = "at+jwt"

// acceptedType reports whether typ, a JOSE header's typ, is one an access
// token may carry. RFC 9068 names at+jwt (application/at+jwt in full;
// RFC 7515 §4.1.9 compares media types without regard to case). Most
// issuers (Auth0's default profile, Keycloak, Microsoft Entra ID, Okta)
// write "JWT" or nothing on their access tokens, and an OpenID Connect ID
// token carries the same "JWT", so JWT cannot be refused without refusing
// those issuers: the audience check is what keeps their ID tokens out.
// Every other type is a token for another purpose (an ID token typed as
// one, a logout token, a DPoP proof, a security event) and is refused.
func acceptedType(typ string) bool {
	t := strings.TrimPrefix(strings.ToLower(typ), "application/")
	return t == "" || t == accessTokenType || t == "jwt"
}

// SetMaxLifetime sets the longest lifetime an access token may have;
// zero or less means DefaultMaxTokenLifetime. Call it before first use.
func (v *Verifier) SetMaxLifetime(d time.Duration) {
	if d <= 0 {
		d = DefaultMaxTokenLifetime
	}
	v.maxLifetime = d
}

// checkTimes refuses a verified token issued in the future (beyond the
// clock skew allowed on nbf) or living longer than the maximum: exp − iat,
// or exp − now when the token has no iat.
func (v *Verifier) checkTimes(tok *oidc.IDToken) *livestock.Error {
	now := v.now()
	issued := tok.IssuedAt
	if issued.IsZero() {
		issued = now
	} else if issued.After(now.Add(nbfLeeway)) {
		return unauthenticated(livestock.CodeUnauthenticated, reasonIssuedInFuture,
			fmt.Errorf("iat %s, now %s", tok.IssuedAt.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339)))
	}
	if life := tok.Expiry.Sub(issued); life > v.maxLifetime {
		return unauthenticated(livestock.CodeUnauthenticated, reasonTooLong,
			fmt.Errorf("lifetime %s, maximum %s", life, v.maxLifetime))
	}
	return nil
}
