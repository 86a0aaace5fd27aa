package crash

import (
	"testing"

	"github.com/drover-registry/drover/reliability/internal/harness"
)

// TestMain removes the drover binary once every test has run.
func TestMain(m *testing.M) { harness.Main(m) }

// publicURL names the sandbox issuer. It must not change between runs,
// as the port does, or a token would not survive a restart.
const publicURL = "http://drover.crash.test"

// start runs drover serve against dsn, its log appended to logPath (one
// file for every run on a database). The rate limit and the concurrency
// limit are off: they would refuse the load the test needs, and are not
// what it tests (a 503 R003 is counted as refused all the same).
func start(t *testing.T, dsn, logPath string) *harness.Server {
	t.Helper()
	return harness.Start(t, harness.Options{
		Database: dsn,
		Flags:    []string{"--public-url", publicURL, "--rate-limit", "0", "--max-in-flight", "0", "--log-level", "warn"},
		LogPath:  logPath,
	})
}
