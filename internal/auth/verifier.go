package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/drover-registry/drover/internal/livestock"
)

// supportedAlgs are the signature algorithms a token may use: RS256 and
// PS256 for external issuers, ES256 for the sandbox. Anything else,
// notably "none" and the HMAC family, is refused before any key is tried.
var supportedAlgs = []string{"RS256", "ES256", "PS256"}

// UserLookup maps a token's subject to a user. store.Store satisfies it; it
// returns a KindNotFound error for a subject with no user record.
type UserLookup interface {
	UserBySubject(ctx context.Context, subject string) (livestock.User, error)
}

// Verifier checks bearer tokens and finds the user they speak for. It is
// the only verification path: the sandbox and production differ only in
// the KeySet they hand to NewVerifier.
type Verifier struct {
	issuer   string
	audience string
	users    UserLookup
	now      func() time.Time
	// maxLifetime is the longest exp − iat accepted (checkTimes).
	maxLifetime time.Duration
	tokens      *oidc.IDTokenVerifier
	cache       *tokenCache
}

// NewVerifier returns a Verifier accepting tokens from issuer, intended for
// audience, signed by one of keys. It remembers each verified token for
// DefaultCacheTTL; SetCacheTTL changes that. It refuses tokens living
// longer than DefaultMaxTokenLifetime; SetMaxLifetime changes that.
func NewVerifier(issuer, audience string, keys oidc.KeySet, users UserLookup) *Verifier {
	v := &Verifier{issuer: issuer, audience: audience, users: users, now: time.Now, maxLifetime: DefaultMaxTokenLifetime, cache: newTokenCache(DefaultCacheTTL)}
	v.tokens = oidc.NewVerifier(issuer, tracingKeySet{keys}, &oidc.Config{
		ClientID:             audience,
		SupportedSigningAlgs: supportedAlgs,
		Now:                  func() time.Time { return v.now() },
	})
	return v
}

// SetCacheTTL sets how long a verified token's user is reused; zero or
// less checks every token on every request. Call it before first use.
func (v *Verifier) SetCacheTTL(d time.Duration) { v.cache = newTokenCache(d) }

// Authenticate verifies the bearer token of r's Authorization header. The
// scheme is matched without regard to case (RFC 7235). The header given
// twice is refused rather than one of them read: a proxy in front may
// have read the other.
func (v *Verifier) Authenticate(r *http.Request) (livestock.User, error) {
	if len(r.Header.Values("Authorization")) > 1 {
		return livestock.User{}, unauthenticated(livestock.CodeUnauthenticated, reasonRepeated, errNoCredentials)
	}
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return livestock.User{}, unauthenticated(livestock.CodeUnauthenticated, reasonMissing, errNoCredentials)
	}
	scheme, token, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return livestock.User{}, unauthenticated(livestock.CodeUnauthenticated, reasonNotBearer, errNoCredentials)
	}
	return v.Verify(r.Context(), strings.TrimSpace(token))
}

// Verify checks a raw JWT (signature, algorithm, type, issuer, audience,
// expiry, not-before, issued-at and lifetime) and returns the user its subject names. A refused token
// gives a KindUnauthenticated *livestock.Error saying why; a store failure
// is returned as it is.
func (v *Verifier) Verify(ctx context.Context, raw string) (livestock.User, error) {
	if u, ok := v.cache.get(raw, v.now()); ok {
		return u, nil
	}
	if err := checkShape(raw); err != nil {
		return livestock.User{}, err
	}
	tr := &trace{}
	tok, err := v.tokens.Verify(context.WithValue(ctx, traceKey{}, tr), raw)
	if err != nil {
		return livestock.User{}, v.explain(err, tr)
	}
	if err := v.checkTimes(tok); err != nil {
		return livestock.User{}, err
	}
	if tok.Subject == "" {
		return livestock.User{}, unauthenticated(livestock.CodeUnauthenticated, reasonNoSubject, nil)
	}
	if !livestock.PlainText(tok.Subject) {
		// No user has such a subject, and PostgreSQL would fail on it
		// where SQLite finds no match: both answer as for an unknown one.
		return livestock.User{}, unauthenticated(livestock.CodeUnknownUser, reasonUnknownUser, fmt.Errorf("subject %q is not plain text", tok.Subject))
	}
	u, err := v.users.UserBySubject(ctx, tok.Subject)
	if livestock.IsNotFound(err) {
		return livestock.User{}, unauthenticated(livestock.CodeUnknownUser, reasonUnknownUser, err)
	}
	if err != nil {
		return livestock.User{}, fmt.Errorf("auth: user for subject %q: %w", tok.Subject, err)
	}
	v.cache.put(raw, u, tok.Expiry, v.now())
	return u, nil
}
