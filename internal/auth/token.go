package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Grant types of the token endpoint.
const (
	grantPassword          = "password"
	grantAuthorizationCode = "authorization_code"
	grantRefreshToken      = "refresh_token"
)

// Lifetimes, as on the live service: access tokens 60 minutes, refresh
// tokens 90 days; authorization codes 5 minutes.
const (
	accessTokenLife  = 60 * time.Minute
	refreshTokenLife = 90 * 24 * time.Hour
	authCodeLife     = 5 * time.Minute
)

// grant is what an accepted grant entitles the client to.
type grant struct {
	user     livestock.User
	clientID string
	scope    string
	// What the grant spends when its tokens are issued (issue.go), in the
	// one transaction that stores the new refresh token: the hash of an
	// authorization code or of a refresh token; none for a password.
	code, refresh string
}

// Token serves POST /oauth2/token: the password, authorization_code and
// refresh_token grants. A refused grant is a KindInvalid error with
// CodeBadGrant naming the form field at fault.
func (s *Sandbox) Token(w http.ResponseWriter, r *http.Request) error {
	form, err := readForm(w, r)
	if err != nil {
		return err
	}
	var g grant
	switch gt := form.Get("grant_type"); gt {
	case "":
		return require(form, "form:", "grant_type")
	case grantPassword:
		g, err = s.passwordGrant(r, form)
	case grantAuthorizationCode:
		g, err = s.codeGrant(r.Context(), form)
	case grantRefreshToken:
		g, err = s.refreshGrant(r.Context(), form)
	default:
		return livestock.Invalid("The grant type is not supported.", livestock.FieldError{
			Code: livestock.CodeBadEnum, Source: "form:grant_type", Value: gt,
			Message: "grant_type must be authorization_code, password or refresh_token",
		})
	}
	if err != nil {
		setRetryAfter(w, err)
		return err
	}
	resp, err := s.issue(r.Context(), g)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, "no-store", resp)
}

func (s *Sandbox) passwordGrant(r *http.Request, f url.Values) (grant, error) {
	// As the sign-in form (Authorize): a post another site's page made the
	// browser send would let any page try passwords from its visitors'
	// addresses. Farm software posts from no page, and sends neither
	// Sec-Fetch-Site nor Origin.
	if err := crossSite.Check(r); err != nil {
		return grant{}, &livestock.Error{Kind: livestock.KindForbidden, Detail: "The password grant was posted from another site.",
			Fields: []livestock.FieldError{{Code: livestock.CodeForbidden, Source: "header:Sec-Fetch-Site",
				Message: "a browser page of another site may not post the password grant"}}, Err: err}
	}
	if err := require(f, "form:", "username", "password"); err != nil {
		return grant{}, err
	}
	u, err := s.checkPassword(r, f.Get("username"), f.Get("password"))
	if errors.Is(err, errBadCredentials) {
		return grant{}, badGrant("password", msgBadCredentials)
	}
	if err != nil {
		return grant{}, err
	}
	return grant{user: u, clientID: f.Get("client_id"), scope: normalScope(f.Get("scope"))}, nil
}

func (s *Sandbox) codeGrant(ctx context.Context, f url.Values) (grant, error) {
	if err := require(f, "form:", "code", "code_verifier", "redirect_uri", "client_id"); err != nil {
		return grant{}, err
	}
	if !pkceValid(f.Get("code_verifier")) {
		return grant{}, livestock.Invalid("The code verifier is malformed.", fieldError(livestock.CodeBadFormat,
			"form:code_verifier", "code_verifier must be 43 to 128 letters, digits or -._~"))
	}
	// Checked before it is spent (issue spends it), as a refresh token is.
	hash := hashSecret(f.Get("code"))
	c, err := s.store.AuthCode(ctx, hash, s.now())
	if livestock.IsNotFound(err) {
		return grant{}, s.codeRefused(ctx, hash)
	}
	if err != nil {
		return grant{}, fmt.Errorf("auth: reading authorization code: %w", err)
	}
	var bad error
	switch {
	case c.ClientID != f.Get("client_id"):
		bad = badGrant("client_id", "client_id is not the one the code was issued to")
	case c.RedirectURI != f.Get("redirect_uri"):
		bad = badGrant("redirect_uri", "redirect_uri is not the one of the authorization request")
	case !pkceMatches(c.ChallengeType, c.Challenge, f.Get("code_verifier")):
		bad = badGrant("code_verifier", "code_verifier does not match the code_challenge")
	}
	if bad != nil {
		// A refused exchange spends the code all the same: whoever tries a
		// code with the wrong client or verifier may hold a stolen one.
		// Spent by another use since it was read, it was used twice.
		_, err := s.store.TakeAuthCode(ctx, hash, s.now(), store.RefreshToken{})
		switch {
		case livestock.IsNotFound(err):
			return grant{}, s.codeRefused(ctx, hash)
		case err != nil:
			return grant{}, fmt.Errorf("auth: spending authorization code: %w", err)
		}
		return grant{}, bad
	}
	u, err := s.grantUser(ctx, c.UserName, "code")
	// The refresh tokens rotated from this grant form a chain named by the
	// code, so that a second use of the code can revoke them.
	return grant{user: u, clientID: c.ClientID, scope: c.Scope, code: hash}, err
}

// codeRefused is the refusal of an authorization code that cannot be
// taken. A code used before was intercepted: the refresh tokens its first
// use began are revoked (RFC 6749 §4.1.2). Its access token lives on to
// its expiry, as a signed token does.
func (s *Sandbox) codeRefused(ctx context.Context, hash string) error {
	if _, err := s.store.RevokeCodeChain(ctx, hash, s.now()); err != nil {
		return fmt.Errorf("auth: revoking the code's refresh chain: %w", err)
	}
	return badGrant("code", "the authorization code is unknown, used or expired")
}

func (s *Sandbox) refreshGrant(ctx context.Context, f url.Values) (grant, error) {
	if err := require(f, "form:", "refresh_token"); err != nil {
		return grant{}, err
	}
	// Checked before it is spent: else anyone holding the token could
	// spend the client's by naming another client or a wider scope.
	hash := hashSecret(f.Get("refresh_token"))
	rt, err := s.store.RefreshToken(ctx, hash, s.now())
	if livestock.IsNotFound(err) {
		return grant{}, s.refused(ctx, hash)
	}
	if err != nil {
		return grant{}, fmt.Errorf("auth: reading refresh token: %w", err)
	}
	if cid := f.Get("client_id"); cid != "" && cid != rt.ClientID {
		return grant{}, badGrant("client_id", "client_id is not the one the refresh token was issued to")
	}
	scope := rt.Scope
	if asked := strings.Fields(f.Get("scope")); len(asked) > 0 {
		granted := strings.Fields(rt.Scope)
		for _, a := range asked {
			if !slices.Contains(granted, a) {
				return grant{}, badGrant("scope", "scope asks for more than was granted")
			}
		}
		scope = strings.Join(asked, " ")
	}
	u, err := s.grantUser(ctx, rt.UserName, "refresh_token")
	return grant{user: u, clientID: rt.ClientID, scope: scope, refresh: hash}, err
}

// refused is the refusal of a refresh token that cannot be taken. When it
// was spent already, whoever sends it again holds a copy (RFC 9700
// §4.14.2): the chain it began is revoked, the successor and everything
// issued from it, so the thief and the client cannot both go on.
func (s *Sandbox) refused(ctx context.Context, hash string) error {
	if _, err := s.store.RevokeRefreshChain(ctx, hash, s.now()); err != nil {
		return fmt.Errorf("auth: revoking refresh chain: %w", err)
	}
	return badGrant("refresh_token", "the refresh token is unknown, used or expired")
}

// grantUser finds the user a code or refresh token was issued to.
func (s *Sandbox) grantUser(ctx context.Context, name, field string) (livestock.User, error) {
	u, err := s.store.UserByName(ctx, name)
	if livestock.IsNotFound(err) {
		return u, badGrant(field, "the user of this grant no longer exists")
	}
	if err != nil {
		return u, fmt.Errorf("auth: user %q: %w", name, err)
	}
	return u, nil
}
