package auth

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestBadBytesInNames: a NUL or invalid UTF-8 in a user name (the token
// endpoint's and the sign-in form's username, a token's subject) gets the
// same answer on both stores, never a store error: PostgreSQL refuses such
// text in a query where SQLite finds no match. The forms answer 400
// naming the field; a token is refused as naming no user.
func TestBadBytesInNames(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		seedKeeper(t, s)
		sb := newSandbox(t, s, testIssuer, nil)
		_, signing := sb.ring.current()
		v := sb.Verifier(s)
		for _, name := range []string{"kee\x00per1", "kee\xffper1", "\x00", "keeper1\x7f"} {
			badName := authFailure{Kind: livestock.KindInvalid, Fields: []livestock.FieldError{{
				Code: livestock.CodeBadFormat, Source: "form:username", Message: "username must be UTF-8 text without control characters",
			}}}
			t.Run("password grant "+name, func(t *testing.T) {
				_, err := post(sb.Token, PathToken, url.Values{"grant_type": {"password"}, "username": {name}, "password": {"keeper1"}})
				if diff := cmp.Diff(badName, failureOf(err)); diff != "" {
					t.Errorf("Token refusal mismatch (-want +got):\n%s", diff)
				}
			})
			t.Run("sign-in form "+name, func(t *testing.T) {
				form := goodAuthQuery()
				form.Set("username", name)
				form.Set("password", "keeper1")
				w, err := post(sb.Authorize, PathAuthorize, form)
				if diff := cmp.Diff(badName, failureOf(err)); diff != "" {
					t.Errorf("Authorize refusal mismatch (-want +got):\n%s", diff)
				}
				if w.Code == http.StatusFound {
					t.Errorf("Authorize redirected: %v", w.Header())
				}
			})
			t.Run("token subject "+name, func(t *testing.T) {
				now := time.Now()
				tok := signTyped(t, jose.ES256, signing, accessTokenType, jwt.Claims{
					Issuer: testIssuer, Subject: name, Audience: jwt.Audience{DefaultAudience},
					IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Hour)),
				})
				_, err := v.Verify(t.Context(), tok)
				if diff := cmp.Diff(refused(livestock.CodeUnknownUser, reasonUnknownUser), failureOf(err)); diff != "" {
					t.Errorf("Verify refusal mismatch (-want +got):\n%s", diff)
				}
			})
		}
		t.Run("client_id of the sign-in form", func(t *testing.T) {
			form := goodAuthQuery()
			form.Set("client_id", "herd\x00app")
			form.Set("username", "keeper1")
			form.Set("password", "keeper1")
			_, err := post(sb.Authorize, PathAuthorize, form)
			want := authFailure{Kind: livestock.KindInvalid, Fields: []livestock.FieldError{{
				Code: livestock.CodeBadFormat, Source: "form:client_id", Message: "client_id must be UTF-8 text without control characters",
			}}}
			if diff := cmp.Diff(want, failureOf(err)); diff != "" {
				t.Errorf("Authorize refusal mismatch (-want +got):\n%s", diff)
			}
		})
		t.Run("a password of any bytes is only wrong", func(t *testing.T) {
			_, err := post(sb.Token, PathToken, url.Values{"grant_type": {"password"}, "username": {"keeper1"}, "password": {"\x00\xff"}})
			if diff := cmp.Diff(badGrant("password", msgBadCredentials).Fields, failureOf(err).Fields); diff != "" {
				t.Errorf("Token refusal mismatch (-want +got):\n%s", diff)
			}
		})
	})
}
