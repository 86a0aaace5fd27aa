package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"
	"time"
)

// TestLogDurationsInSeconds: a duration in the log is a number of seconds,
// at any depth, and other values are as slog writes them.
func TestLogDurationsInSeconds(t *testing.T) {
	var buf bytes.Buffer
	log, err := newLogger(&buf, "info")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("request", slog.Duration("duration", 1500*time.Microsecond), slog.Int("status", 201),
		slog.Group("job", slog.Duration("retry_in", 2*time.Second)))
	var line struct {
		Duration float64 `json:"duration"`
		Status   int     `json:"status"`
		Job      struct {
			RetryIn float64 `json:"retry_in"`
		} `json:"job"`
	}
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, buf.Bytes())
	}
	if line.Duration != 0.0015 || line.Job.RetryIn != 2 || line.Status != 201 {
		t.Errorf("logged %s", buf.Bytes())
	}
}
