package crash

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The drover binary is built once per test process, without -race (the
// server under test need not be instrumented, and it starts faster).
var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// TestMain removes the binary's directory once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if binary != "" {
		_ = os.RemoveAll(filepath.Dir(binary))
	}
	os.Exit(code)
}

// build returns the path of a freshly built ./cmd/drover.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "drover-crash-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "drover")
		cmd := exec.Command("go", "build", "-o", binary, "github.com/drover-registry/drover/cmd/drover")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/drover: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// server is one run of drover serve as a child process.
type server struct {
	url  string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has been waited for
}

// publicURL names the sandbox issuer. It must not change between runs,
// as the port does, or a token would not survive a restart.
const publicURL = "http://drover.crash.test"

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// start runs drover serve on a free port against dsn, its stderr appended
// to logPath, and waits for the line that says where it listens. The rate
// limit and the load shedding are off: they would refuse the load the test
// needs, and are not what it tests (a 503 R003 is counted as refused all
// the same).
func start(t *testing.T, dsn, logPath string) *server {
	t.Helper()
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{done: make(chan struct{})}
	s.cmd = exec.Command(build(t), "serve", "--addr", "127.0.0.1:0", "--database", dsn,
		"--public-url", publicURL, "--rate-limit", "0", "--max-in-flight", "0", "--log-level", "warn")
	// The adaptive load shedding is off too, by its environment variable
	// (unknown variables are ignored, unlike unknown flags).
	s.cmd.Env = append(os.Environ(), "DROVER_ADAPTIVE_LIMIT=false")
	s.cmd.Stderr = logf
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start drover serve: %v", err)
	}
	found := make(chan string, 1)
	go func() {
		for sc := bufio.NewScanner(stdout); sc.Scan(); {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	go func() { _ = s.cmd.Wait(); logf.Close(); close(s.done) }()
	t.Cleanup(s.kill) // whatever happens to the test, the child does not outlive it
	select {
	case s.url = <-found:
		return s
	case <-s.done:
		t.Fatalf("drover serve exited before listening:\n%s", tail(logPath))
	case <-time.After(time.Minute): // a failure guard, not a measurement
		t.Fatalf("drover serve did not listen within a minute:\n%s", tail(logPath))
	}
	return nil
}

// kill ends the server with SIGKILL, as a power cut would, and waits for it.
func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

// killed says whether the process ended by SIGKILL (rather than having
// exited by itself before it).
func (s *server) killed() bool {
	ws, ok := s.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// stop asks the server to drain and exit, and kills it if it will not.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(time.Minute):
		s.kill()
	}
}

// tail is the end of a log, for a failure message.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(string(bytes.TrimSpace(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-30):], "\n")
}
