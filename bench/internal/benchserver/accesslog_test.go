package benchserver

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestAccessLog reads the durations of 2xx answers under /v1 from lines
// as drover serve writes them (a duration in seconds, cmd/drover's
// newLogger), from a position on.
func TestAccessLog(t *testing.T) {
	t.Parallel()
	head := `{"time":"2026-11-29T05:00:00Z","level":"INFO","msg":"sandbox data created"}` + "\n"
	lines := head +
		`{"time":"2026-11-29T05:00:01Z","level":"INFO","msg":"request","correlation_id":"c1","method":"POST","route":"/v1/TransferRequests","path":"/v1/TransferRequests","status":201,"bytes":900,"duration":0.0015,"user":"bench"}` + "\n" +
		`{"time":"2026-11-29T05:00:01Z","level":"INFO","msg":"request","correlation_id":"c2","method":"GET","route":"/v1/TransferRequests","path":"/v1/TransferRequests","status":200,"bytes":9000,"duration":2,"user":"bench"}` + "\n" +
		`{"time":"2026-11-29T05:00:01Z","level":"INFO","msg":"request","correlation_id":"c3","method":"POST","route":"/v1/TransferRequests","path":"/v1/TransferRequests","status":503,"bytes":90,"duration":0.0001,"user":"bench"}` + "\n" +
		`{"time":"2026-11-29T05:00:01Z","level":"INFO","msg":"request","correlation_id":"c4","method":"GET","route":"/readyz","path":"/readyz","status":200,"bytes":9,"duration":0.0002,"user":""}` + "\n"
	path := filepath.Join(t.TempDir(), "drover.log")
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &Server{log: path}
	all, post, get, err := s.AccessLog(int64(len(head)), -1)
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	if !slices.Equal(all, []time.Duration{1500 * time.Microsecond, 2000 * ms}) ||
		!slices.Equal(post, []time.Duration{1500 * time.Microsecond}) || !slices.Equal(get, []time.Duration{2000 * ms}) {
		t.Errorf("AccessLog = %v, %v, %v", all, post, get)
	}
}
