package main

import (
	"bufio"
	"context"
	"database/sql"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// TestServeAnswersWhileOpening: while serve waits to open its database (a
// long migration; here another connection's lock), /healthz is 200 and
// the rest a 503 with Retry-After, so that a liveness probe does not kill
// a migrating server; once the database opens, the API answers.
func TestServeAnswersWhileOpening(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "drover.db")
	lock, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	lock.SetMaxOpenConns(1)
	if _, err := lock.Exec("BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs, logw := io.Pipe()
	opening := make(chan struct{})
	go func() {
		said := false
		for sc := bufio.NewScanner(logs); sc.Scan(); {
			if !said && strings.Contains(sc.Text(), "opening the database") {
				said = true
				close(opening)
			}
		}
	}()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr, "--database", path}, func(string) string { return "" }, io.Discard, logw)
		logw.Close()
	}()
	// The checks below run once serve is waiting for the database, not
	// while it loads what comes before.
	select {
	case <-opening:
	case err := <-done:
		t.Fatalf("serve ended before opening the database: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("serve never began to open the database")
	}
	get := func(p string) (int, string) {
		res, err := http.Get("http://" + addr + p)
		if err != nil {
			return 0, err.Error()
		}
		defer res.Body.Close()
		_, _ = io.Copy(io.Discard, res.Body)
		return res.StatusCode, res.Header.Get("Retry-After")
	}
	deadline := time.Now().Add(30 * time.Second)
	for code, _ := get("/healthz"); code != http.StatusOK; code, _ = get("/healthz") {
		if time.Now().After(deadline) {
			t.Fatalf("GET /healthz while the database is locked: %d, want 200", code)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, p := range []string{"/readyz", "/v1/me", "/v1/animals"} {
		if code, retry := get(p); code != http.StatusServiceUnavailable || retry == "" {
			t.Errorf("GET %s while the database is locked = %d, Retry-After %q; want 503 with Retry-After", p, code, retry)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/readyz", nil)
	req.Header.Set("X-Correlation-ID", "probe-1")
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Error(err)
	} else {
		res.Body.Close()
		if got := res.Header.Get("X-Correlation-ID"); got != "probe-1" || res.Header.Get("LI-Correlation-Id") == "" {
			t.Errorf("correlation headers while the database is locked: %q, %q; want probe-1 echoed under both names",
				got, res.Header.Get("LI-Correlation-Id"))
		}
	}
	if _, err := lock.Exec("ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(2 * time.Minute)
	for code, _ := get("/readyz"); code != http.StatusOK; code, _ = get("/readyz") {
		if time.Now().After(deadline) {
			t.Fatalf("GET /readyz after the lock went = %d, want 200", code)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, _ := get("/v1/me"); code != http.StatusUnauthorized {
		t.Errorf("GET /v1/me once open = %d, want 401", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
