package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/store/storetest"
)

// startServer runs `drover serve` in-process on a free port, as a user
// would, and returns its base URL and a stop function that waits for it.
func startServer(t *testing.T, env map[string]string, args ...string) (string, func() error) {
	t.Helper()
	base, stop, _ := startServerLog(t, env, args...)
	return base, stop
}

// startServerLog is startServer that also returns the log the server
// wrote before it said where it listens: its startup.
func startServerLog(t *testing.T, env map[string]string, args ...string) (string, func() error, []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	getenv := func(k string) string { return env[k] }
	var log startupLog
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), getenv, w, &log)
		w.Close()
	}()
	lines := bufio.NewScanner(out)
	listening := regexp.MustCompile(`listening on (http://\S+)`)
	for lines.Scan() {
		if m := listening.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, out)
			stop := sync.OnceValue(func() error {
				cancel()
				select {
				case err := <-done:
					return err
				case <-time.After(30 * time.Second):
					return errors.New("server did not stop within 30s")
				}
			})
			t.Cleanup(func() { _ = stop() })
			return m[1], stop, log.lines()
		}
	}
	cancel()
	t.Fatalf("server did not start: %v", <-done)
	return "", nil, nil
}

// startupLog keeps what a server logs until it is read, then nothing: a
// test reads the startup, and the log of its requests is let go.
type startupLog struct {
	mu   sync.Mutex
	b    bytes.Buffer
	read bool
}

func (l *startupLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.read {
		l.b.Write(p)
	}
	return len(p), nil
}

// lines is the log so far, one entry a line; later entries are dropped.
func (l *startupLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.read = true
	return strings.Split(strings.TrimSpace(l.b.String()), "\n")
}

func TestServeSandboxEndToEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, database string }{
		{"sqlite", filepath.Join(t.TempDir(), "drover.db")},
		{"postgres", postgresURL(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.database == "" {
				t.Skip("DROVER_TEST_POSTGRES not set")
			}
			base, stop := startServer(t, map[string]string{"DROVER_DATABASE": tc.database})

			res, err := http.Get(base + "/v1/me")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("GET /v1/me without a token = %d, want 401", res.StatusCode)
			}
			res, err = http.PostForm(base+"/oauth2/token", url.Values{"grant_type": {"password"}, "username": {"keeper1"}, "password": {"keeper1"}})
			if err != nil {
				t.Fatal(err)
			}
			var tok struct {
				AccessToken  string `json:"access_token"`
				RefreshToken string `json:"refresh_token"`
				ExpiresIn    int    `json:"expires_in"`
			}
			if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || tok.AccessToken == "" || tok.RefreshToken == "" || tok.ExpiresIn != 3600 {
				t.Fatalf("token answer %d: %+v %v", res.StatusCode, tok, err)
			}
			res.Body.Close()
			for _, path := range []string{"/v1/me", "/v1/StandingData", "/v1/StandingData/sheepBreeds"} {
				req, _ := http.NewRequest(http.MethodGet, base+path, nil)
				req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					t.Errorf("GET %s = %d %s", path, res.StatusCode, body)
				}
			}
			if err := stop(); err != nil {
				t.Fatalf("graceful stop: %v", err)
			}
		})
	}
}

// TestRestartKeepsTokensValid restarts the server on the same database: the
// signing key and the seed survive, so a token from before still works.
func TestRestartKeepsTokensValid(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "drover.db")
	base, stop := startServer(t, nil, "--database", db)
	res, err := http.PostForm(base+"/oauth2/token", url.Values{"grant_type": {"password"}, "username": {"keeper2"}, "password": {"keeper2"}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(res.Body).Decode(&tok)
	res.Body.Close()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	// The issuer name is the URL, and the port changes: pin it with --public-url.
	base2, _ := startServer(t, nil, "--database", db, "--public-url", base)
	req, _ := http.NewRequest(http.MethodGet, base2+"/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("token from before the restart: %d, want 200", res.StatusCode)
	}
}

func TestServeHelpListsEverySetting(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	err := run(context.Background(), []string{"serve", "--help"}, func(string) string { return "" }, &out, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("serve --help = %v", err)
	}
	for _, want := range []string{"--addr", "DROVER_ADDR", "--database", "DROVER_DATABASE", "--rate-limit", "--max-page",
		"--issuer", "--audience", "--max-body", "--request-timeout", "--shutdown-timeout", "--workers", "--max-in-flight", "--max-waiting", "--max-wait", `"127.0.0.1:8080"`, `"500"`, `"100"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve --help lacks %s", want)
		}
	}
}

// TestImportHelpShowsTheFile: drover import -h gives the file's form
// beside the flags, as docs/operations.md says.
func TestImportHelpShowsTheFile(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	err := run(context.Background(), []string{"import", "-h"}, func(string) string { return "" }, &out, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("import -h = %v", err)
	}
	for _, want := range []string{"--database", "--update", `"holdings": [{"holding"`, `"animals": [{"tag"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("import -h lacks %s:\n%s", want, out.String())
		}
	}
}

func TestEnvironmentAndFlags(t *testing.T) {
	t.Parallel()
	var c config
	env := map[string]string{"DROVER_MAX_PAGE": "50", "DROVER_RATE_LIMIT": "0", "DROVER_ADDR": ":9999"}
	err := parse(serveFlags(&c), []string{"--addr", ":7777"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxPage != 50 || c.RateLimit != 0 || c.Addr != ":7777" || c.Database != "./drover.db" {
		t.Errorf("config = %+v", c)
	}
	env["DROVER_MAX_PAGE"] = "lots"
	if err := parse(serveFlags(&c), nil, func(k string) string { return env[k] }, io.Discard); err == nil || !strings.Contains(err.Error(), "DROVER_MAX_PAGE") {
		t.Errorf("bad environment value: %v", err)
	}
}

// TestAdaptiveLimitDeprecated: --adaptive-limit, by flag or environment,
// to either value, is still accepted (a deployment that sets it keeps
// starting) and draws a warning saying what replaced it; a value that is
// not a boolean is still refused.
func TestAdaptiveLimitDeprecated(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args []string
		env  map[string]string
		warn bool
	}{
		{[]string{"--adaptive-limit=false"}, nil, true},
		{[]string{"--adaptive-limit"}, nil, true},
		{nil, map[string]string{"DROVER_ADAPTIVE_LIMIT": "true"}, true},
		{nil, nil, false},
	} {
		var logs bytes.Buffer
		// --max-page=0 stops serve at its settings check, after the warning.
		args := append([]string{"serve", "--max-page=0"}, tc.args...)
		err := run(ctx, args, func(k string) string { return tc.env[k] }, io.Discard, &logs)
		if err == nil || !strings.HasPrefix(err.Error(), "--max-page must be") {
			t.Fatalf("serve %v = %v; want it to stop at --max-page", tc.args, err)
		}
		if got := strings.Contains(logs.String(), "--adaptive-limit (DROVER_ADAPTIVE_LIMIT) is deprecated, no effect"); got != tc.warn {
			t.Errorf("serve %v %v: warned %v, want %v; log: %s", tc.args, tc.env, got, tc.warn, &logs)
		}
	}
	var c config
	if err := parse(serveFlags(&c), []string{"--adaptive-limit=maybe"}, func(string) string { return "" }, io.Discard); err == nil {
		t.Error("--adaptive-limit=maybe accepted")
	}
}

func TestMigrateAndVersion(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	db := filepath.Join(t.TempDir(), "m.db")
	if err := run(context.Background(), []string{"migrate", "--database", db}, func(string) string { return "" }, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(db); err != nil || !strings.Contains(out.String(), "migrated") {
		t.Errorf("migrate: %v %q", err, out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"version"}, nil, &out, io.Discard); err != nil || !strings.HasPrefix(out.String(), "drover ") {
		t.Errorf("version = %q, %v", out.String(), err)
	}
	if err := run(context.Background(), []string{"frobnicate"}, nil, io.Discard, io.Discard); err == nil {
		t.Error("unknown sub-command accepted")
	}
}

// TestServeRefusesBadSettings: a setting that would silently mean
// something else (a negative bound read as "no bound", a page or body of 0
// replaced by the default, a retry-after that overflows) is refused before
// anything is opened, naming the flag.
func TestServeRefusesBadSettings(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "never.db")
	// Cancelled: were a setting taken, serve would stop at once instead
	// of serving until the test's timeout.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range [][2]string{
		{"--max-queued-jobs", "-1"}, {"--reply-retention", "-1h"}, {"--job-retention", "-1h"},
		{"--max-page", "0"}, {"--max-page", "-5"}, {"--max-body", "0"}, {"--max-in-flight", "-3"},
		{"--max-waiting", "-1"}, {"--max-wait", "-1ms"},
		{"--rate-limit", "-1"}, {"--rate-limit", "NaN"}, {"--rate-limit", "+Inf"}, {"--rate-burst", "0"},
		{"--workers", "0"}, {"--workers", "10000000"}, {"--retry-after", "0"}, {"--retry-after", "99999999999"},
		{"--read-timeout", "-1s"}, {"--write-timeout", "0s"}, {"--request-timeout", "0s"}, {"--shutdown-timeout", "-5s"},
		{"--audience", ""}, {"--database", ""}, {"--database", ":memory:"}, {"--database", "postgresql:/bad"},
		{"--database", "mysql://foo"}, {"--database", "host=127.0.0.1 user=postgres dbname=test sslmode=disable"},
		{"--database", "dbname=drover"}, {"--database", "gssencmode=disable host=db"}, {"--database", "mydb=x user=y"},
		{"--max-token-lifetime", "0s"}, {"--max-token-lifetime", "30m"},
		{"--public-url", "not a url"}, {"--public-url", "ftp://drover.example.org"}, {"--public-url", "https://"},
		{"--issuer", "notaurl"}, {"--issuer", "login.example.gov.uk"},
	} {
		flag, value := tc[0], tc[1]
		err := run(ctx, []string{"serve", "--database", db, flag + "=" + value}, func(string) string { return "" }, io.Discard, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), flag+" must be ") {
			t.Errorf("serve %s=%s = %v; want an error naming %s", flag, value, err, flag)
		}
	}
	// Not cancelled, so that a list checked only once the store is open
	// would create the database first.
	live, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	if err := run(live, []string{"serve", "--addr", "127.0.0.1:0", "--database", db, "--sandbox-clients=x=ftp://y"}, func(string) string { return "" },
		io.Discard, io.Discard); err == nil || !strings.HasPrefix(err.Error(), "--sandbox-clients: ") {
		t.Errorf("serve --sandbox-clients=x=ftp://y = %v; want an error naming --sandbox-clients", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused serve created its database")
	}
	for _, ok := range []string{"postgres.db", "./data/drover.db", "postgres://u@h/db", "postgresql://u@h/db", "file:drover.db?_fk=1",
		"./host=a.db", "sslmode.db", "a=b.db", "data/x=1 y.db"} {
		if databaseKind(ok) == "" {
			t.Errorf("databaseKind(%q) = \"\", want a store", ok)
		}
	}
}

// postgresURL is a fresh schema's URL on the server named by
// DROVER_TEST_POSTGRES, or "" when none is configured (outside CI).
func postgresURL(t *testing.T) string {
	if os.Getenv(storetest.EnvPostgres) == "" && os.Getenv("CI") == "" {
		return ""
	}
	return storetest.PostgresURL(t)
}

// A second server started on a port that is taken stops before it opens
// the database: no migration runs against a store another process serves.
func TestServeOnATakenPortLeavesTheDatabaseAlone(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	db := filepath.Join(t.TempDir(), "never.db")
	err = run(context.Background(), []string{"serve", "--database", db, "--addr", taken.Addr().String()},
		func(string) string { return "" }, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("serve on a taken port = %v; want address already in use", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("serve on a taken port created its database")
	}
	// So does one whose profiler's port is taken, or whose standing data
	// cannot be read.
	for _, tc := range []struct{ flag, value, want string }{
		{"--debug-addr", taken.Addr().String(), "address already in use"},
		{"--standing-data", filepath.Join(t.TempDir(), "missing"), "is not a directory"},
	} {
		err = run(context.Background(), []string{"serve", "--database", db, "--addr", "127.0.0.1:0", tc.flag, tc.value},
			func(string) string { return "" }, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("serve %s %s = %v; want %s", tc.flag, tc.value, err, tc.want)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("serve with a bad %s created its database", tc.flag)
		}
	}
}

// An SQLite path that cannot be a database file is named as such, not as
// a database that is unavailable for now.
func TestServeNamesAnUnusableSQLitePath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(dir, "missing", "drover.db"), "does not exist"},
		{dir, "is a directory"},
	} {
		err := run(context.Background(), []string{"serve", "--database", tc.path, "--addr", "127.0.0.1:0"},
			func(string) string { return "" }, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "try again later") {
			t.Errorf("serve --database %s = %v; want it %s", tc.path, err, tc.want)
		}
	}
}

// TestCloseWithin: a store that will not close (its database gone) holds
// the process no later than the shutdown's deadline.
func TestCloseWithin(t *testing.T) {
	t.Parallel()
	stuck := make(chan struct{})
	defer close(stuck)
	start := time.Now()
	closeWithin(func() error { <-stuck; return nil }, start.Add(50*time.Millisecond), slog.New(slog.DiscardHandler))
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("closeWithin waited %s for a store that never closes", waited)
	}
	closed := false
	closeWithin(func() error { closed = true; return nil }, time.Time{}, slog.New(slog.DiscardHandler))
	if !closed {
		t.Error("without a deadline the store was not closed")
	}
}

// TestBuildRevision: without -ldflags the version names the commit the
// toolchain stamped, and says when the tree had changes.
func TestBuildRevision(t *testing.T) {
	info := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "827ff3412345abcdef"}, {Key: "vcs.modified", Value: "true"}}}
	for _, tc := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{info, true, "dev-827ff3412345+dirty"},
		{&debug.BuildInfo{Settings: info.Settings[:1]}, true, "dev-827ff3412345"},
		{&debug.BuildInfo{}, true, "dev"},
		{nil, false, "dev"},
	} {
		if got := buildRevision(tc.info, tc.ok); got != tc.want {
			t.Errorf("buildRevision = %q, want %q", got, tc.want)
		}
	}
}

// TestServeWarnsOfRiskySettings: a server whose PostgreSQL session has a
// setting that breaks a promise (here synchronous_commit off, set in the
// URL) says so at WARN as it starts, and still starts; on SQLite, whose
// settings Drover makes, it warns of none.
func TestServeWarnsOfRiskySettings(t *testing.T) {
	t.Parallel()
	u := postgresURL(t)
	if u == "" {
		t.Skip("DROVER_TEST_POSTGRES not set")
	}
	warned := func(lines []string, setting string) bool {
		for _, l := range lines {
			if strings.Contains(l, `"level":"WARN","msg":"database setting breaks a promise"`) && strings.Contains(l, setting) {
				return true
			}
		}
		return false
	}
	_, _, lines := startServerLog(t, map[string]string{"DROVER_DATABASE": u + "&synchronous_commit=off"})
	if !warned(lines, "synchronous_commit = off") {
		t.Errorf("startup log names no synchronous_commit = off:\n%s", strings.Join(lines, "\n"))
	}
	_, _, lines = startServerLog(t, map[string]string{"DROVER_DATABASE": filepath.Join(t.TempDir(), "drover.db")})
	if warned(lines, "") {
		t.Errorf("SQLite: startup log warns of a setting:\n%s", strings.Join(lines, "\n"))
	}
}
