// Package benchserver runs the real drover binary for the benchmark
// programs under bench/: built from this module, started as a child (so
// that its peak memory is its own), signed in to, and stopped.
package benchserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/drover-registry/drover/bench/internal/cpu"
)

// Server is the real drover binary, running as a child process.
type Server struct {
	URL     string
	cmd     *exec.Cmd
	log     string
	done    chan error
	exited  chan struct{} // closed when the process has exited
	ownPeak atomic.Int64  // the largest RssAnon sampled, in bytes
}

// BuildBinary builds ./cmd/drover of the module the benchmark runs in.
func BuildBinary(ctx context.Context, out string) (string, error) {
	gomod, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	build := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/drover")
	build.Dir = strings.TrimSuffix(strings.TrimSpace(string(gomod)), "/go.mod")
	if msg, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/drover: %w\n%s", err, msg)
	}
	return out, nil
}

var listening = regexp.MustCompile(`listening on (http://\S+)`)

// LimitsOff are the flags that turn off every limit that refuses load:
// the per-user rate limit, the concurrency limit and the bound on queued
// jobs. A benchmark of throughput gives them to the server it measures the
// work with, and to the one it compares the defaults against.
var LimitsOff = []string{"--rate-limit", "0", "--max-in-flight", "0", "--max-queued-jobs", "0"}

// AtDefaults are the flags of a server at its default settings for a
// benchmark: only the per-user rate limit is raised, since a benchmark's
// load comes from one to three users and that limit protects users from
// each other, not the machine.
var AtDefaults = []string{"--rate-limit", "1000000"}

// Start runs drover serve on a free port with args (LimitsOff or
// AtDefaults, --database and the like), and waits for it to say where it
// listens.
func Start(ctx context.Context, bin, logPath string, args ...string) (*Server, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	s := &Server{log: logPath, done: make(chan error, 1), exited: make(chan struct{})}
	s.cmd = exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	s.cmd.Stderr = logf
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	found := make(chan string, 1)
	go func() {
		for sc := bufio.NewScanner(stdout); sc.Scan(); {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	go func() { err := s.cmd.Wait(); close(s.exited); s.done <- err; logf.Close() }()
	go s.sampleOwn()
	select {
	case s.URL = <-found:
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("drover serve exited (%v); see %s", err, logPath)
	case <-time.After(2 * time.Minute):
	case <-ctx.Done():
	}
	s.Stop()
	return nil, fmt.Errorf("drover serve did not start; see %s", logPath)
}

// Stop asks the server to drain and exit, and kills it if it will not.
func (s *Server) Stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(40 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// Memory is the server's peak memory. Resident is VmHWM: everything it
// ever held at once, the pages of the database file its SQLite readers
// map included. Those are the kernel's page cache, shared and dropped at
// will, and a store that read them with pread would hold the same pages
// in the same cache, uncounted. Own is the memory the process itself
// allocated (RssAnon): the largest of samples taken every sampleEvery
// and one taken when asked, so a spike between two samples is missed.
// It is what the memory targets are about.
type Memory struct {
	Own, Resident int64
}

const sampleEvery = 20 * time.Millisecond

// String is the two figures as a report shows them: own / resident.
func (m Memory) String() string {
	return fmt.Sprintf("%.0f / %.0f MB", float64(m.Own)/1e6, float64(m.Resident)/1e6)
}

// PeakMemory reads the server's peak memory.
func (s *Server) PeakMemory() (Memory, error) {
	status, err := s.status()
	if err != nil {
		return Memory{}, err
	}
	hwm, err := statusKB(status, "VmHWM:")
	if err != nil {
		return Memory{}, err
	}
	anon, err := statusKB(status, "RssAnon:") // a kernel without it (before 4.5) measures nothing here
	if err != nil {
		return Memory{}, err
	}
	s.recordOwn(anon)
	return Memory{Own: s.ownPeak.Load(), Resident: hwm}, nil
}

// sampleOwn records the process's RssAnon until it exits.
func (s *Server) sampleOwn() {
	t := time.NewTicker(sampleEvery)
	defer t.Stop()
	for {
		select {
		case <-s.exited:
			return
		case <-t.C:
			if status, err := s.status(); err == nil {
				if anon, err := statusKB(status, "RssAnon:"); err == nil {
					s.recordOwn(anon)
				}
			}
		}
	}
}

func (s *Server) recordOwn(v int64) {
	for {
		old := s.ownPeak.Load()
		if v <= old || s.ownPeak.CompareAndSwap(old, v) {
			return
		}
	}
}

func (s *Server) status() (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	return string(b), err
}

// statusKB reads a field given in kB from /proc/<pid>/status, in bytes.
func statusKB(status, field string) (int64, error) {
	for line := range strings.Lines(status) {
		if f := strings.Fields(line); len(f) == 3 && f[0] == field && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/<pid>/status", strings.TrimSuffix(field, ":"))
}

// Token signs a sandbox user in with the password grant.
func (s *Server) Token(ctx context.Context, user, password string) (string, error) {
	form := url.Values{"grant_type": {"password"}, "username": {user}, "password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := GetJSON(req, &tok); err != nil || tok.AccessToken == "" {
		return "", fmt.Errorf("token for %s: %v", user, err)
	}
	return tok.AccessToken, nil
}

// GetJSON does req and decodes a 200 answer into v.
func GetJSON(req *http.Request, v any) error {
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", req.Method, req.URL.Path, res.Status)
	}
	return json.NewDecoder(res.Body).Decode(v)
}

// String says where the server listens, its process and its log.
func (s *Server) String() string {
	return fmt.Sprintf("%s (pid %d, log %s)", s.URL, s.cmd.Process.Pid, s.log)
}

// CPU is the processor time the server has used so far, user and system,
// all threads.
func (s *Server) CPU() (time.Duration, error) { return cpu.Process(s.cmd.Process.Pid) }
