package outage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drover-registry/drover/reliability/internal/harness"
)

// TestMain removes the drover binary once every test has run.
func TestMain(m *testing.M) { harness.Main(m) }

// startServer runs drover serve over the database at dsn with the flags
// given, in an environment of its own (no DROVER_* variable of the test's
// reaches it); it is stopped (SIGTERM) when the test ends. If the test
// failed, the server's errors are logged, and its whole log is kept in
// $OUTAGE_LOG_DIR when that is set.
func startServer(t *testing.T, dsn string, flags ...string) *harness.Server {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "serve.log")
	// Registered before Start's, so run after it: the server has stopped
	// and written all it will.
	t.Cleanup(func() {
		if t.Failed() {
			reportLog(t, logPath)
		}
	})
	return harness.Start(t, harness.Options{
		Database: dsn,
		Flags:    flags,
		Env:      []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()},
		LogPath:  logPath,
	})
}

// reportLog logs the server's errors, for a failed test.
func reportLog(t *testing.T, logPath string) {
	b, _ := os.ReadFile(logPath)
	if dir := os.Getenv("OUTAGE_LOG_DIR"); dir != "" { // keep the whole log for a look
		_ = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".log"), b, 0o644)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, "job attempt failed") {
			t.Logf("server: %.2000s", line)
		}
	}
}
