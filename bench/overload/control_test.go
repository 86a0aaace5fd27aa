package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the control's null server, as the
// program is when the control starts it again.
func TestMain(m *testing.M) {
	if os.Getenv(nullServerEnv) != "" {
		if err := serveNull(os.Stdout); err != nil {
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

func TestNullHandlerAdmitsOneInThree(t *testing.T) {
	t.Parallel()
	h := nullHandler()
	var codes []int
	for range 6 {
		body := strings.NewReader(`{"content":{}}`)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", body))
		if body.Len() != 0 {
			t.Errorf("the body was not drained: %d bytes left", body.Len())
		}
		if rec.Code == http.StatusServiceUnavailable && rec.Header().Get("Retry-After") == "" {
			t.Error("a 503 without Retry-After")
		}
		codes = append(codes, rec.Code)
	}
	want := []int{503, 503, 200, 503, 503, 200}
	for i := range want {
		if codes[i] != want[i] {
			t.Fatalf("codes %v, want %v", codes, want)
		}
	}
}

func TestTinyControlRun(t *testing.T) {
	t.Parallel()
	o := options{Duration: time.Second, Phase: 500 * time.Millisecond, LightRate: 20, Connections: 4, Factor: 3,
		Outstanding: 32, Client: "raw", Control: true, ControlOffered: 300}
	var out bytes.Buffer
	if err := run(context.Background(), o, nil, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, want := range []string{"### control: a null server", "… 200 / 503 | 100 / 200 |", "200s p99 / unloaded p99",
		"CPU during the overload: null server"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
