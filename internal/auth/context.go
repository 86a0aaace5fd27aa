package auth

import (
	"context"

	"github.com/drover-registry/drover/internal/livestock"
)

// userKey is the context key of the signed-in user.
type userKey struct{}

// WithUser returns a copy of ctx carrying u as the signed-in user.
func WithUser(ctx context.Context, u livestock.User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFrom returns the signed-in user, and false when the request was not
// authenticated (a handler behind the authentication middleware can rely on
// it being set).
func UserFrom(ctx context.Context) (livestock.User, bool) {
	u, ok := ctx.Value(userKey{}).(livestock.User)
	return u, ok
}
