package api

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// What a store error becomes on the wire while the database is gone: 503
// with Retry-After when it cannot be reached, 504 when the request's own
// deadline ended the store call, and 500 only for a fault of ours.
func TestStoreOutageStatus(t *testing.T) {
	t.Parallel()
	storeErr := func(cause error) error { // as sqldb's wrap reports a driver error
		return &livestock.Error{Kind: livestock.KindUnavailable, Detail: "the database is unavailable; try again later",
			Err: fmt.Errorf("store: Op: %w", cause)}
	}
	type answer struct {
		Status     int
		RetryAfter string
	}
	for _, tc := range []struct {
		name string
		err  error
		want answer
	}{
		{"connection refused", storeErr(errors.New("dial tcp: connection refused")), answer{503, "1"}},
		{"request deadline in a query", storeErr(context.DeadlineExceeded), answer{504, ""}},
		{"deadline wrapped by a caller", fmt.Errorf("auth: user: %w", storeErr(context.DeadlineExceeded)), answer{504, ""}},
		{"a fault of ours", errors.New("store: Op: sql: converting argument"), answer{500, ""}},
	} {
		w := httptest.NewRecorder()
		writeProblem(w, tc.err)
		got := answer{w.Code, w.Header().Get("Retry-After")}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
