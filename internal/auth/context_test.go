package auth

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

func TestUserInContext(t *testing.T) {
	t.Parallel()
	if _, ok := UserFrom(context.Background()); ok {
		t.Error("UserFrom(empty context) reported a user")
	}
	want := livestock.User{ID: 7, Name: "keeper1", Subject: "keeper1", Role: livestock.RoleKeeper}
	got, ok := UserFrom(WithUser(context.Background(), want))
	if !ok {
		t.Fatal("UserFrom(WithUser(u)) reported no user")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UserFrom(WithUser(u)) mismatch (-want +got):\n%s", diff)
	}
}
