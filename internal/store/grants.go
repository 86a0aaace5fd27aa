package store

import (
	"context"
	"time"
)

// GrantStore keeps what the sandbox issuer (internal/auth) hands out and
// signs with: its signing keys, shared by every replica, and the
// single-use authorization codes and refresh tokens it grants.
type GrantStore interface {
	// SigningKeys lists the issuer's keys, oldest first.
	SigningKeys(ctx context.Context) ([]SigningKey, error)
	// AddSigningKey stores k unless a key with its ID exists.
	AddSigningKey(ctx context.Context, k SigningKey) error

	// Authorization codes and refresh tokens are single use: Take marks one
	// used and stores next, the refresh token its use grants, in one
	// transaction, and returns the one taken, or KindNotFound when it is
	// unknown, used or expired at now. next continues the chain of the
	// token taken, or starts the one a code names; so a second use of the
	// code or token, which waits for the first to commit, always finds
	// next to revoke. A next without a hash spends the code or token and
	// stores nothing.
	AddAuthCode(ctx context.Context, c AuthCode) error
	TakeAuthCode(ctx context.Context, codeHash string, now time.Time, next RefreshToken) (AuthCode, error)
	AddRefreshToken(ctx context.Context, r RefreshToken) error
	TakeRefreshToken(ctx context.Context, tokenHash string, now time.Time, next RefreshToken) (RefreshToken, error)
	// AuthCode and RefreshToken read what Take would take, leaving it
	// unused, or KindNotFound: a grant is checked before it is spent.
	AuthCode(ctx context.Context, codeHash string, now time.Time) (AuthCode, error)
	RefreshToken(ctx context.Context, tokenHash string, now time.Time) (RefreshToken, error)
	// RevokeRefreshChain spends, at now, every unspent token of the chain
	// of tokenHash when tokenHash was spent already (its reuse means it was
	// stolen), and says how many; an unknown or unspent token revokes none.
	RevokeRefreshChain(ctx context.Context, tokenHash string, now time.Time) (int64, error)
	// RevokeCodeChain spends, at now, every unspent refresh token of the
	// chain named by codeHash (the chain a code grant starts) when that
	// code was taken already: a code used twice was intercepted (RFC 6749
	// §4.1.2). An unknown or untaken code revokes none.
	RevokeCodeChain(ctx context.Context, codeHash string, now time.Time) (int64, error)
}

// SigningKey is one private key of the sandbox issuer, as a JWK.
type SigningKey struct {
	ID         string // the JWK "kid"
	Algorithm  string // e.g. "ES256"
	PrivateJWK []byte
	CreatedAt  time.Time
}

// AuthCode is an authorization code of the sandbox issuer (PKCE).
type AuthCode struct {
	CodeHash      string // SHA-256 of the code, hex; the code itself is never stored
	UserName      string
	ClientID      string
	RedirectURI   string
	Challenge     string // PKCE code_challenge
	ChallengeType string // "S256" or "plain"
	Scope         string
	ExpiresAt     time.Time
}

// RefreshToken is a refresh token of the sandbox issuer.
type RefreshToken struct {
	TokenHash string // SHA-256 of the token, hex
	UserName  string
	ClientID  string
	Scope     string
	ExpiresAt time.Time
	Chain     string // hash of the chain's first token; empty on Add starts a chain
}
