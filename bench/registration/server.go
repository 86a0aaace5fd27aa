package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is the real drover binary, run as a child so that its peak
// memory is its own.
type server struct {
	URL  string
	cmd  *exec.Cmd
	log  string
	done chan error
}

// buildBinary builds ./cmd/drover of the module the benchmark runs in.
func buildBinary(ctx context.Context, out string) (string, error) {
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

// startServer runs drover serve on a free port with the rate limit and the
// load shedding off (they would refuse the load, not measure it), and
// waits for it to say where it listens.
func startServer(ctx context.Context, bin, dsn string, workers int, logPath string) (*server, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	s := &server{log: logPath, done: make(chan error, 1)}
	args := []string{"serve", "--addr", "127.0.0.1:0", "--database", dsn, "--rate-limit", "0", "--max-in-flight", "0"}
	if workers > 0 {
		args = append(args, "--workers", strconv.Itoa(workers))
	}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Stderr = logf
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
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
	go func() { s.done <- s.cmd.Wait(); logf.Close() }()
	select {
	case s.URL = <-found:
		return s, nil
	case err := <-s.done:
		return nil, fmt.Errorf("drover serve exited (%v); see %s", err, logPath)
	case <-time.After(2 * time.Minute):
	case <-ctx.Done():
	}
	s.stop()
	return nil, fmt.Errorf("drover serve did not start; see %s", logPath)
}

// stop asks the server to drain and exit, and kills it if it will not.
func (s *server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(40 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// peakRSS is the server's peak resident memory (VmHWM), in bytes.
func (s *server) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/<pid>/status")
}

// token signs a sandbox user in with the password grant.
func (s *server) token(ctx context.Context, user string) (string, error) {
	form := url.Values{"grant_type": {"password"}, "username": {user}, "password": {user}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || res.StatusCode != http.StatusOK || tok.AccessToken == "" {
		return "", fmt.Errorf("token for %s: %s, %v", user, res.Status, err)
	}
	return tok.AccessToken, nil
}
