package outage

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// guard is the client-side timeout: far beyond the server's request
// timeout, so that reaching it means the service hung, not that it was slow.
const guard = 30 * time.Second

var httpClient = &http.Client{Timeout: guard}

// answer is one response, or the transport error that stood for it.
type answer struct {
	Status     int
	RetryAfter string
	Body       []byte
	Err        error
	Took       time.Duration
}

func (a answer) String() string {
	if a.Err != nil {
		return fmt.Sprintf("error after %s: %v", a.Took, a.Err)
	}
	return fmt.Sprintf("%d after %s (Retry-After %q): %.300s", a.Status, a.Took, a.RetryAfter, a.Body)
}

// call sends one request with keeper's token (none when token is "").
func call(base, token, method, path, body string, header ...string) answer {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		return answer{Err: err}
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	start := time.Now()
	resp, err := httpClient.Do(req)
	if err != nil {
		return answer{Err: err, Took: time.Since(start)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return answer{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After"), Body: b, Err: err, Took: time.Since(start)}
}

// field reads one top-level field of a JSON body as text.
func field(body []byte, name string) string {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	switch v := m[name].(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(int64(v))
	}
	return ""
}
