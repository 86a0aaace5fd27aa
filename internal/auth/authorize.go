package auth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// crossSite refuses cross-origin browser posts (net/http's CSRF check):
// no origin is trusted beyond the issuer's own.
var crossSite http.CrossOriginProtection

// AuthorizeForm serves GET /oauth2/authorize: the sandbox's login page
// for the authorization-code flow. The request's parameters ride along in
// hidden fields. A request without PKCE, or asking for anything but a
// code, is refused (400) before any page is shown.
func (s *Sandbox) AuthorizeForm(w http.ResponseWriter, r *http.Request) error {
	q, err := single(r.URL.Query(), "query:")
	if err != nil {
		return err
	}
	ar, err := parseAuthRequest(q, "query:")
	if err != nil {
		return err
	}
	if err := s.checkClient(ar, "query:"); err != nil {
		return err
	}
	return renderLogin(w, loginPage{Request: ar})
}

// Authorize serves POST /oauth2/authorize: the login form's submission. A
// good user name and password redirect (302) to redirect_uri with a code
// and the state; a bad one shows the page again with a message; Cancel
// redirects with error=access_denied and the state.
//
// A post another site's page made the browser send (Sec-Fetch-Site, or
// Origin against Host) is refused (403): else any page could sign a
// visitor in, or try passwords, in their name.
func (s *Sandbox) Authorize(w http.ResponseWriter, r *http.Request) error {
	if err := crossSite.Check(r); err != nil {
		return &livestock.Error{Kind: livestock.KindForbidden, Detail: "The sign-in form was posted from another site.",
			Fields: []livestock.FieldError{{Code: livestock.CodeForbidden, Source: "header:Sec-Fetch-Site",
				Message: "the sign-in form must be posted from the sign-in page itself"}}, Err: err}
	}
	form, err := readForm(w, r)
	if err != nil {
		return err
	}
	ar, err := parseAuthRequest(form, "form:")
	if err != nil {
		return err
	}
	if err := s.checkClient(ar, "form:"); err != nil {
		return err
	}
	if form.Get("cancel") != "" {
		// The user declined (RFC 6749 §4.1.2.1): the client learns it at its
		// redirect_uri, as it would from the live service's sign-in page.
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, withParams(ar.RedirectURI, ar.State, "error", "access_denied",
			"error_description", "The user declined to sign in."), http.StatusFound)
		return nil
	}
	name, password := form.Get("username"), form.Get("password")
	if name == "" || password == "" {
		return renderLogin(w, loginPage{Request: ar, UserName: name, Error: "Enter your user name and password."})
	}
	u, err := s.checkPassword(r, name, password)
	if errors.Is(err, errBadCredentials) {
		return renderLogin(w, loginPage{Request: ar, UserName: name, Error: "The user name or password is wrong."})
	}
	if err != nil {
		setRetryAfter(w, err)
		return err
	}
	code := rand.Text() + rand.Text()
	if err := s.store.AddAuthCode(r.Context(), store.AuthCode{
		CodeHash:      hashSecret(code),
		UserName:      u.Name,
		ClientID:      ar.ClientID,
		RedirectURI:   ar.RedirectURI,
		Challenge:     ar.CodeChallenge,
		ChallengeType: ar.CodeChallengeMethod,
		Scope:         normalScope(ar.Scope),
		ExpiresAt:     s.now().Add(authCodeLife),
	}); err != nil {
		return fmt.Errorf("auth: storing authorization code: %w", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, withParams(ar.RedirectURI, ar.State, "code", code), http.StatusFound)
	return nil
}
