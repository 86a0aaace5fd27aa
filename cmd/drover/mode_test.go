package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/postgres"
	"github.com/drover-registry/drover/internal/store/sqlite"
)

// fakeIssuer serves an OpenID Connect discovery document and an empty key
// set: enough for drover serve --issuer to start.
func fakeIssuer(t *testing.T) string {
	t.Helper()
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": srv.URL, "jwks_uri": srv.URL + "/keys", "authorization_endpoint": srv.URL + "/authorize",
			"token_endpoint": srv.URL + "/token", "id_token_signing_alg_values_supported": []string{"RS256"},
		})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, `{"keys": []}`) })
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// serveOnce runs drover serve on db and returns its error at start; a
// server that does start is stopped as soon as it listens (and gives nil).
func serveOnce(db string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--database", db}, args...),
		func(string) string { return "" }, cancelOnListening{cancel}, io.Discard)
}

// cancelOnListening is serve's standard output, cancelling the server's
// context when it says it listens.
type cancelOnListening struct{ cancel context.CancelFunc }

func (c cancelOnListening) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "listening on") {
		c.cancel()
	}
	return len(p), nil
}

// hasSandboxUsers reports whether the sandbox's keeper1 is in db.
func hasSandboxUsers(t *testing.T, db string) bool {
	t.Helper()
	var st store.Store
	var err error
	if databaseKind(db) == "postgres" {
		st, err = postgres.Open(t.Context(), db)
	} else {
		st, err = sqlite.Open(t.Context(), db)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.UserByName(t.Context(), "keeper1")
	return err == nil
}

// TestServeModeIsTheDatabases: a new database takes the mode of the first
// server (or import) to use it, and keeps it. A server of the other mode
// refuses to start, naming the flag that matches the database, before it
// seeds anything or asks the issuer; a production database never gets
// the sandbox's test users.
func TestServeModeIsTheDatabases(t *testing.T) {
	t.Parallel()
	issuer := fakeIssuer(t)
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			newDB := func() string {
				if kind == "sqlite" {
					return filepath.Join(t.TempDir(), "drover.db")
				}
				u := postgresURL(t)
				if u == "" {
					t.Skip("DROVER_TEST_POSTGRES not set")
				}
				return u
			}

			// A sandbox database: the default start makes one, and a
			// production server refuses it without reaching the issuer.
			sandboxDB := newDB()
			base, stop := startServer(t, nil, "--database", sandboxDB)
			res, err := http.Get(base + "/.well-known/openid-configuration")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("the sandbox issuer answers %d", res.StatusCode)
			}
			if err := stop(); err != nil {
				t.Fatal(err)
			}
			err = serveOnce(sandboxDB, "--issuer", "http://127.0.0.1:1/unreachable")
			if err == nil || !strings.Contains(err.Error(), "sandbox database") || !strings.Contains(err.Error(), "without --issuer") {
				t.Errorf("serve --issuer on a sandbox database = %v; want a refusal naming --issuer", err)
			}
			if err := serveOnce(sandboxDB); err != nil {
				t.Errorf("the sandbox again: %v", err)
			}

			// A production server that cannot reach its issuer leaves a
			// new database unclaimed, for whichever server comes next.
			unclaimedDB := newDB()
			if err := serveOnce(unclaimedDB, "--issuer", "http://127.0.0.1:1/unreachable"); err == nil || !strings.Contains(err.Error(), "issuer") {
				t.Errorf("serve --issuer with the issuer unreachable = %v; want its error", err)
			}
			if err := serveOnce(unclaimedDB); err != nil {
				t.Errorf("the sandbox after a failed production start: %v", err)
			}

			// A production database: a server with --issuer makes one, and
			// a sandbox server refuses it without seeding its users.
			prodDB := newDB()
			if err := serveOnce(prodDB, "--issuer", issuer); err != nil {
				t.Fatalf("serve --issuer on a new database: %v", err)
			}
			err = serveOnce(prodDB)
			if err == nil || !strings.Contains(err.Error(), "production database") || !strings.Contains(err.Error(), "with --issuer") {
				t.Errorf("sandbox serve on a production database = %v; want a refusal naming --issuer", err)
			}
			if hasSandboxUsers(t, prodDB) {
				t.Error("the sandbox's users were seeded into a production database")
			}
			if err := serveOnce(prodDB, "--issuer", issuer); err != nil {
				t.Errorf("production again: %v", err)
			}
		})
	}
}

// TestImportMakesProduction: drover import's users are real, so a
// database it fills is production (a sandbox server refuses it, and seeds
// nothing), and it refuses to add them to a sandbox database.
func TestImportMakesProduction(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "registry.json")
	if err := os.WriteFile(file, []byte(`{"holdings": [{"holding": "12/345/6789", "type": "producer"}],
		"users": [{"userName": "jsmith", "subject": "idp|42", "role": "keeper", "holdings": ["12/345/6789"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	imp := func(db string) error {
		return run(context.Background(), []string{"import", "--database", db, file}, func(string) string { return "" }, io.Discard, io.Discard)
	}
	prodDB := filepath.Join(dir, "prod.db")
	if err := run(context.Background(), []string{"migrate", "--database", prodDB}, func(string) string { return "" }, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := imp(prodDB); err != nil {
		t.Fatal(err)
	}
	if err := serveOnce(prodDB); err == nil || !strings.Contains(err.Error(), "--issuer") {
		t.Errorf("sandbox serve after an import = %v; want a refusal naming --issuer", err)
	}
	if hasSandboxUsers(t, prodDB) {
		t.Error("the sandbox's users were seeded beside imported ones")
	}

	sandboxDB := filepath.Join(dir, "sandbox.db")
	if err := serveOnce(sandboxDB); err != nil {
		t.Fatal(err)
	}
	if err := imp(sandboxDB); err == nil || !strings.Contains(err.Error(), "sandbox database") {
		t.Errorf("import into a sandbox database = %v; want a refusal", err)
	}
}
