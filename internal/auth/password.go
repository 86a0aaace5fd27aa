package auth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/livestock"
)

// errBadCredentials means the user name or the password is wrong; which of
// the two is never told.
var errBadCredentials = errors.New("auth: bad user name or password")

// msgBadCredentials is the one message for both a wrong password and an
// unknown user, so that the token endpoint does not reveal who exists.
const msgBadCredentials = "the user name or password is wrong"

// dummyHash is compared against when there is no real hash, so that an
// unknown user costs as much time as a wrong password.
var dummyHash = sync.OnceValue(func() []byte {
	h, err := bcrypt.GenerateFromPassword([]byte(rand.Text()), bcrypt.DefaultCost)
	if err != nil {
		panic(err) // only for a cost out of range
	}
	return h
})

// checkPassword returns the user named name when password is theirs, or
// errBadCredentials. Users without a password (those who sign in through
// an external issuer) cannot use it. A user name or address with too many
// recent failures is refused (429) before any hashing, and at most a few
// checks run at once (503 beyond a short wait): a wrong password costs
// the caller more than the server.
func (s *Sandbox) checkPassword(r *http.Request, name, password string) (livestock.User, error) {
	ctx, now := r.Context(), s.now()
	userKey, addrKey := "user:"+name, "addr:"+clientAddr(r)
	if wait := s.throttle.begin(now, userKey, addrKey); wait > 0 {
		return livestock.User{}, errThrottled(wait)
	}
	if err := s.checks.acquire(ctx); err != nil {
		s.throttle.pardon(userKey)
		s.throttle.pardon(addrKey)
		return livestock.User{}, err
	}
	defer s.checks.release()
	u, err := s.comparePassword(ctx, name, password)
	switch {
	case errors.Is(err, errBadCredentials): // counted by begin
	case err == nil:
		s.throttle.forget(userKey)
		s.throttle.pardon(addrKey)
	default:
		s.throttle.pardon(userKey)
		s.throttle.pardon(addrKey)
	}
	return u, err
}

// comparePassword is checkPassword's comparison itself.
func (s *Sandbox) comparePassword(ctx context.Context, name, password string) (livestock.User, error) {
	var hash []byte
	u, err := s.store.UserByName(ctx, name)
	switch {
	case livestock.IsNotFound(err):
	case err != nil:
		return livestock.User{}, fmt.Errorf("auth: user %q: %w", name, err)
	default:
		hash, err = s.store.PasswordHash(ctx, u.Name)
		if err != nil && !livestock.IsNotFound(err) {
			return livestock.User{}, fmt.Errorf("auth: password of %q: %w", name, err)
		}
	}
	if hash == nil {
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return livestock.User{}, errBadCredentials
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil {
		return livestock.User{}, errBadCredentials
	}
	return u, nil
}
