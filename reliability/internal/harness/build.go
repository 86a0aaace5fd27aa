// Package harness is what the reliability tests share: the real drover
// binary, built once per test binary and run as a child process the way it
// runs in production (Start, Stop, Kill), and a sandbox token (Token). The
// calves their loads register are the sandbox's own (sandbox.Keeper's
// CalfRegistration).
package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The binary is built once per test binary, into a directory that Main
// removes when every test has run.
var (
	buildOnce sync.Once
	buildDir  string
	binPath   string
	buildErr  error
)

// Main is the body of a TestMain: it runs the tests, then removes the
// binary Binary built.
func Main(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// Binary returns the path of ./cmd/drover, built on the first call. It is
// built without the race detector even under -race: instrumented, the
// sandbox's bcrypt is slower than the short request timeouts the tests
// need, and the server starts slower; cmd/drover's own tests run the
// server under the detector.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "drover-reliability-"); buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "drover")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/drover-registry/drover/cmd/drover")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/drover: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}
