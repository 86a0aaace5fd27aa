package baseline

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestStart posts to the baseline on both databases: each answer is 201
// with the next id.
func TestStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, dsn string }{{"sqlite", ""}, {"postgres", "postgres"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := tc.dsn
			if dsn != "" {
				dsn = storetest.PostgresURL(t) // skips unless DROVER_TEST_POSTGRES is set (fails in CI)
			}
			tg, err := database.Open(ctx, "baseline-test", dsn, false)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if _, err := tg.Close(ctx, false); err != nil {
					t.Error(err)
				}
			}()
			srv, err := Start(ctx, tg)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			for _, want := range []string{`{"requestId":1}`, `{"requestId":2}`} {
				res, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"a":1}`))
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusCreated || string(b) != want {
					t.Errorf("POST = %s %s; want 201 %s", res.Status, b, want)
				}
			}
			srv.Close()
		})
	}
}
