package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/store/storetest"
)

func TestMain(m *testing.M) { Main(m) }

// TestServer runs the real binary on SQLite twice over one database and
// one log: stopped, then killed.
func TestServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs drover serve")
	}
	dsn, logPath := storetest.SQLitePath(t), filepath.Join(t.TempDir(), "serve.log")
	o := Options{Database: dsn, LogPath: logPath, Flags: []string{"--log-level", "info"}}

	s := Start(t, o)
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Errorf("URL = %q", s.URL)
	}
	if Token(t, s.URL, "keeper1") == "" {
		t.Error("empty token")
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if s.Kill() {
		t.Error("Kill of a stopped server says SIGKILL ended it")
	}
	before := len(s.Log())
	if before == 0 {
		t.Error("nothing logged at level info")
	}

	s = Start(t, o)
	if !s.Kill() {
		t.Error("Kill says SIGKILL did not end the server")
	}
	if err := s.Stop(); err != nil {
		t.Errorf("Stop after Kill: %v", err)
	}
	if len(s.Log()) <= before {
		t.Error("the second server's log did not go after the first's")
	}
}

func TestTail(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "log")
	if err := os.WriteFile(path, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{1: "c", 2: "b\nc", 5: "a\nb\nc"} {
		if got := Tail(path, n); got != want {
			t.Errorf("Tail(%d) = %q, want %q", n, got, want)
		}
	}
}
