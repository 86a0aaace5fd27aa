package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// DefaultAudience is the audience of sandbox tokens unless WithAudience
// says otherwise.
const DefaultAudience = "drover"

// SandboxStore is the part of store.Store the sandbox issuer uses: its
// keys, codes and tokens (store.GrantStore), and the users who sign in
// with a password.
type SandboxStore interface {
	store.GrantStore
	UserByName(ctx context.Context, name string) (livestock.User, error)
	PasswordHash(ctx context.Context, userName string) ([]byte, error)
}

// Sandbox is the sandbox's OpenID provider. It signs ES256 access tokens
// for the users in the store, with keys kept in the store: any replica
// verifies what any other signed, and tokens outlive a restart.
type Sandbox struct {
	store    SandboxStore
	issuer   string
	audience string
	now      func() time.Time
	ring     *keyring
	checks   passwordChecks
	throttle *throttle
	clients  map[string][]string // client id to its redirect URIs: checkClient
}

// SandboxOption configures a Sandbox.
type SandboxOption func(*Sandbox)

// WithAudience sets the aud claim of the tokens the sandbox issues.
func WithAudience(aud string) SandboxOption {
	return func(s *Sandbox) { s.audience = aud }
}

// WithPasswordChecks sets how many password checks may run at once; 0,
// the default, means one per core.
func WithPasswordChecks(n int) SandboxOption {
	return func(s *Sandbox) { s.checks = newPasswordChecks(n) }
}

// NewSandbox starts the sandbox issuer at issuerURL (an absolute http or
// https URL; the endpoints live beneath it). It loads the signing keys from
// the store, creating the first one when there is none. now is the clock
// for issuing and expiring tokens; nil means time.Now.
func NewSandbox(ctx context.Context, s SandboxStore, issuerURL string, now func() time.Time, opts ...SandboxOption) (*Sandbox, error) {
	u, err := url.Parse(issuerURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("auth: sandbox issuer %q is not an absolute http(s) URL", issuerURL)
	}
	if now == nil {
		now = time.Now
	}
	sb := &Sandbox{
		store:    s,
		issuer:   strings.TrimSuffix(issuerURL, "/"),
		audience: DefaultAudience,
		now:      now,
		ring:     &keyring{store: s},
		checks:   newPasswordChecks(0),
		throttle: newThrottle(),
	}
	sb.clients = map[string][]string{DocsClient: {sb.issuer + "/docs/oauth2-redirect.html"}}
	for _, o := range opts {
		o(sb)
	}
	if err := sb.ring.load(ctx); err != nil {
		return nil, err
	}
	if public, _ := sb.ring.current(); len(public) > 0 {
		return sb, nil
	}
	// No key yet. Another replica may be adding one at this moment: add
	// ours (each has its own kid), then reload and sign with the oldest.
	k, err := newSigningKey(sb.now())
	if err != nil {
		return nil, err
	}
	if err := s.AddSigningKey(ctx, k); err != nil {
		return nil, fmt.Errorf("auth: storing signing key: %w", err)
	}
	if err := sb.ring.load(ctx); err != nil {
		return nil, err
	}
	if public, _ := sb.ring.current(); len(public) == 0 {
		return nil, fmt.Errorf("auth: signing key %q was stored but not found again", k.ID)
	}
	return sb, nil
}

// Issuer is the iss of the sandbox's tokens.
func (s *Sandbox) Issuer() string { return s.issuer }

// Audience is the aud of the sandbox's tokens.
func (s *Sandbox) Audience() string { return s.audience }

// Keys returns the sandbox's public keys as an oidc.KeySet for NewVerifier.
func (s *Sandbox) Keys() oidc.KeySet { return storeKeySet{ring: s.ring} }

// Verifier returns NewVerifier(s.Issuer(), s.Audience(), s.Keys(), users).
func (s *Sandbox) Verifier(users UserLookup) *Verifier {
	return NewVerifier(s.issuer, s.audience, s.Keys(), users)
}

// writeJSON writes v as a JSON response with the given Cache-Control.
func writeJSON(w http.ResponseWriter, status int, cache string, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", cache)
	if cache == "no-store" {
		w.Header().Set("Pragma", "no-cache") // RFC 6749 §5.1, for HTTP/1.0 caches
	}
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}
