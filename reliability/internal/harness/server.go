package harness

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Guards against a hang, not measurements: a server that takes longer to
// listen, or to drain after SIGTERM, is broken.
const (
	startGuard = 2 * time.Minute
	stopGuard  = time.Minute
)

// Options says how to run drover serve. The server always listens on a
// free port of 127.0.0.1.
type Options struct {
	Database string   // --database: a SQLite path or a postgres:// URL
	Flags    []string // more flags of drover serve
	// Env is the child's whole environment; nil gives it the test's own.
	Env []string
	// LogPath is the file the server's stderr (its JSON log) is appended
	// to; "" is a new file in the test's temporary directory. Servers
	// started one after another may share one.
	LogPath string
}

// Server is one run of drover serve.
type Server struct {
	URL     string // http://127.0.0.1:PORT, from the line that says it listens
	LogPath string

	cmd     *exec.Cmd
	done    chan struct{} // closed once the process has been waited for
	waitErr error         // what Wait said, once done is closed
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// Start runs drover serve and returns once it listens. When the test ends
// the server is stopped (Stop), and the test fails if it would not drain:
// whatever happens to the test, the child does not outlive it.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	if o.LogPath == "" {
		o.LogPath = filepath.Join(t.TempDir(), "serve.log")
	}
	logf, err := os.OpenFile(o.LogPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--database", o.Database}, o.Flags...)
	s := &Server{LogPath: o.LogPath, cmd: exec.Command(Binary(t), args...), done: make(chan struct{})}
	// The stdout goes through a pipe of ours, read to its end, so that Wait
	// returns only once every line was read and the child never blocks on
	// a full pipe.
	pr, pw := io.Pipe()
	s.cmd.Env, s.cmd.Stdout, s.cmd.Stderr = o.Env, pw, logf
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		t.Fatalf("start drover serve: %v", err)
	}
	found := make(chan string, 1)
	go func() {
		for sc := bufio.NewScanner(pr); sc.Scan(); {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, pr) // a line too long for the scanner
	}()
	go func() {
		s.waitErr = s.cmd.Wait()
		pw.Close()
		logf.Close()
		close(s.done)
	}()
	t.Cleanup(func() {
		if err := s.Stop(); err != nil {
			t.Error(err)
		}
	})
	select {
	case s.URL = <-found:
		return s
	case <-s.done:
		t.Fatalf("drover serve exited before listening: %v\n%s", s.waitErr, Tail(o.LogPath, 30))
	case <-time.After(startGuard):
		t.Fatalf("drover serve did not listen within %s:\n%s", startGuard, Tail(o.LogPath, 30))
	}
	return nil
}

// Stop asks the server to drain and exit (SIGTERM) and waits for it; one
// still running a minute later is killed, and Stop says so. Stopping a
// server that has ended already does nothing.
func (s *Server) Stop() error {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		return nil
	case <-time.After(stopGuard):
		s.Kill()
		return fmt.Errorf("drover serve did not stop within %s of SIGTERM", stopGuard)
	}
}

// Kill ends the server with SIGKILL, as a power cut would, waits for it,
// and reports whether the signal is what ended it (rather than the server
// having exited by itself before).
func (s *Server) Kill() bool {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
	ws, ok := s.cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// Log is the server's log so far (with any earlier server's that shared
// the file).
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.LogPath)
	return string(b)
}

// Tail is the last n lines of the file at path, for a failure message.
func Tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(string(bytes.TrimSpace(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
