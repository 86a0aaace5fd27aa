package auth

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// tokenResponse is the token endpoint's answer (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// accessClaims are the claims of a sandbox access token beyond the
// registered ones.
type accessClaims struct {
	PreferredUsername string `json:"preferred_username"`
}

// issue mints an access token and a fresh refresh token for g. Only the
// refresh token's hash is stored, in the transaction that spends g's code
// or refresh token: a second use of either, which waits for that
// transaction, then finds the new token to revoke, and the database never
// holds a spent token without its successor.
func (s *Sandbox) issue(ctx context.Context, g grant) (tokenResponse, error) {
	now := s.now()
	access, err := s.accessToken(g.user, now)
	if err != nil {
		return tokenResponse{}, err
	}
	refresh := rand.Text() + rand.Text()
	next := store.RefreshToken{
		TokenHash: hashSecret(refresh),
		UserName:  g.user.Name,
		ClientID:  g.clientID,
		Scope:     g.scope,
		ExpiresAt: now.Add(refreshTokenLife),
	}
	switch {
	case g.code != "":
		if _, err = s.store.TakeAuthCode(ctx, g.code, now, next); livestock.IsNotFound(err) {
			return tokenResponse{}, s.codeRefused(ctx, g.code)
		}
	case g.refresh != "":
		// Spent once: of two refreshes with one token, one gets not found.
		if _, err = s.store.TakeRefreshToken(ctx, g.refresh, now, next); livestock.IsNotFound(err) {
			return tokenResponse{}, s.refused(ctx, g.refresh)
		}
	default:
		err = s.store.AddRefreshToken(ctx, next)
	}
	if err != nil {
		return tokenResponse{}, fmt.Errorf("auth: storing refresh token: %w", err)
	}
	return tokenResponse{
		AccessToken:  access,
		TokenType:    "Bearer",
		ExpiresIn:    int(accessTokenLife / time.Second),
		RefreshToken: refresh,
		Scope:        g.scope,
	}, nil
}

// accessToken signs an ES256 JWT for u with the ring's signing key; the
// kid header names the key, and typ at+jwt (RFC 9068) says it is an access
// token.
func (s *Sandbox) accessToken(u livestock.User, now time.Time) (string, error) {
	_, key := s.ring.current()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key},
		(&jose.SignerOptions{}).WithType(accessTokenType))
	if err != nil {
		return "", fmt.Errorf("auth: signer: %w", err)
	}
	claims := jwt.Claims{
		Issuer:    s.issuer,
		Subject:   subjectOf(u),
		Audience:  jwt.Audience{s.audience},
		Expiry:    jwt.NewNumericDate(now.Add(accessTokenLife)),
		NotBefore: jwt.NewNumericDate(now),
		IssuedAt:  jwt.NewNumericDate(now),
		ID:        rand.Text(),
	}
	tok, err := jwt.Signed(signer).Claims(claims).Claims(accessClaims{PreferredUsername: u.Name}).Serialize()
	if err != nil {
		return "", fmt.Errorf("auth: signing access token: %w", err)
	}
	return tok, nil
}

// subjectOf is the sub claim for u: the subject the store maps back to u,
// which for sandbox users is their user name.
func subjectOf(u livestock.User) string {
	if u.Subject != "" {
		return u.Subject
	}
	return u.Name
}
