package outage

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The server under test is the real binary, built once per test run.
var (
	buildOnce sync.Once
	buildDir  string
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// drover builds cmd/drover and returns the binary's path. It is built
// without the race detector even under -race: that makes the sandbox's
// bcrypt slower than the short request timeout these tests need, and
// cmd/drover's own tests run the server under the detector.
func drover(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "drover-outage-"); buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "drover")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/drover-registry/drover/cmd/drover")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// server is a running drover serve.
type server struct {
	URL string
	cmd *exec.Cmd
	log *syncBuffer // its stderr: the JSON log
}

// startServer runs drover serve on a free port over the database at dsn,
// with the flags given, and stops it (SIGTERM) when the test ends.
func startServer(t *testing.T, dsn string, flags ...string) *server {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--database", dsn}, flags...)
	cmd := exec.Command(drover(t), args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	s := &server{cmd: cmd, log: &syncBuffer{}}
	cmd.Stderr = s.log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(60 * time.Second): // a guard against a stuck drain
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("drover did not stop within 60s of SIGTERM")
		}
		if t.Failed() {
			if f := os.Getenv("OUTAGE_LOG_DIR"); f != "" { // keep the whole log for a look
				_ = os.WriteFile(filepath.Join(f, strings.ReplaceAll(t.Name(), "/", "_")+".log"), []byte(s.log.String()), 0o644)
			}
			for _, line := range strings.Split(s.log.String(), "\n") {
				if strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, "job attempt failed") {
					t.Logf("server: %.2000s", line)
				}
			}
		}
	})
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), " listening on "); ok {
				url <- strings.Fields(rest)[0]
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a guard, not a measurement
	defer cancel()
	select {
	case s.URL = <-url:
		return s
	case err := <-exited:
		t.Fatalf("drover exited before listening: %v\n%s", err, s.log.String())
	case <-ctx.Done():
		t.Fatalf("drover did not start listening\n%s", s.log.String())
	}
	return nil
}

// syncBuffer is a bytes.Buffer that the child's stderr copier and the test
// may use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
