package rawhttp

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func TestEncodeIsARequestNetHTTPReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []vegeta.Target{
		{Method: http.MethodPost, URL: "http://127.0.0.1:8080/v1/TransferRequests", Body: []byte(`{"content":{}}`),
			Header: http.Header{"Authorization": {"Bearer abc"}, "X-Correlation-Id": {"c-1"}}},
		{Method: http.MethodGet, URL: "http://localhost/v1/TransferRequests?$top=20&$filter=status%20eq%20'A'"},
		{Method: http.MethodPost, URL: "http://localhost:1/x"}, // a POST without a body says so
	} {
		b, err := Encode(tc)
		if err != nil {
			t.Fatalf("Encode(%s %s): %v", tc.Method, tc.URL, err)
		}
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(b)))
		if err != nil {
			t.Fatalf("ReadRequest(%q): %v", b, err)
		}
		body, _ := io.ReadAll(req.Body)
		want := strings.TrimPrefix(strings.TrimPrefix(tc.URL, "http://"), req.Host)
		if req.Method != tc.Method || req.RequestURI != want || !bytes.Equal(body, tc.Body) {
			t.Errorf("read back %s %s %q, want %s %s %q", req.Method, req.RequestURI, body, tc.Method, want, tc.Body)
		}
		for k := range tc.Header {
			if req.Header.Get(k) != tc.Header.Get(k) {
				t.Errorf("header %s: %q, want %q", k, req.Header.Get(k), tc.Header.Get(k))
			}
		}
		if tc.Method == http.MethodPost && req.ContentLength != int64(len(tc.Body)) {
			t.Errorf("%s: Content-Length %d, want %d", tc.URL, req.ContentLength, len(tc.Body))
		}
	}
	if _, err := Encode(vegeta.Target{Method: "GET", URL: "https://example.org/"}); err == nil {
		t.Error("Encode of an https:// URL: no error")
	}
}

// server answers /ok with a short body, /long with 10 kB sent in chunks,
// /close with Connection: close, /busy with 503, and counts connections.
func server(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/long":
			for range 10 {
				_, _ = w.Write(bytes.Repeat([]byte("x"), 1000))
				w.(http.Flusher).Flush()
			}
		case "/close":
			w.Header().Set("Connection", "close")
			_, _ = io.WriteString(w, "bye")
		case "/busy":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			_, _ = io.WriteString(w, "ok "+r.Method)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// targets cycles through paths on base.
func targets(base string, paths ...string) vegeta.Targeter {
	var n atomic.Int64
	return func(t *vegeta.Target) error {
		*t = vegeta.Target{Method: http.MethodGet, URL: base + paths[int(n.Add(1)-1)%len(paths)]}
		return nil
	}
}

func TestOpenOffersTheRateAndReadsEveryAnswer(t *testing.T) {
	t.Parallel()
	srv, conns := server(t)
	results, err := Open(srv.URL, targets(srv.URL, "/ok", "/long", "/close"), 300, 8, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	byBody := map[string]int{}
	n, wired := 0, 0
	for res := range results {
		n++
		if res.Code != http.StatusOK || res.Error != "" {
			t.Fatalf("%s: %d %s", res.URL, res.Code, res.Error)
		}
		if res.Latency <= 0 {
			t.Errorf("%s: latency %v", res.URL, res.Latency)
		}
		if res.Wire > res.Latency || res.Wire < 0 {
			t.Errorf("%s: wire latency %v, latency %v", res.URL, res.Wire, res.Latency)
		}
		if res.Wire > 0 {
			wired++
		}
		byBody[string(res.Body)]++
	}
	// 300 a second for half a second is 150 due, whatever the machine.
	if n != 150 {
		t.Errorf("%d answers, want 150", n)
	}
	if runtime.GOOS == "linux" && wired == 0 { // the first few may come before the kernel stamps (see stamped)
		t.Error("no answer has a wire latency")
	}
	if byBody["ok GET"] != 50 || byBody["bye"] != 50 || byBody[strings.Repeat("x", bodyKept)] != 50 {
		t.Errorf("bodies kept: %v", byBody)
	}
	// Every /close costs a connection; the rest reuse theirs.
	if c := conns.Load(); c < 50 || c > 50+8 {
		t.Errorf("%d connections, want 50 to 58", c)
	}
}

func TestOpenKeepsToOutstanding(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	waiting, most := 0, 0
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		waiting++
		most = max(most, waiting)
		mu.Unlock()
		<-release
		mu.Lock()
		waiting--
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	results, err := Open(srv.URL, targets(srv.URL, "/"), 1000, 3, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(200*time.Millisecond, func() { close(release) })
	n := 0
	for res := range results {
		if res.Code != http.StatusOK {
			t.Errorf("%d %s", res.Code, res.Error)
		}
		n++
	}
	mu.Lock() // the server's handlers wrote it; reading the answers through the socket is no synchronisation the race detector sees
	defer mu.Unlock()
	if n != 50 || most > 3 {
		t.Errorf("%d answers with at most %d waiting at once, want 50 with at most 3", n, most)
	}
}

func TestClosedPausesAfterARefusal(t *testing.T) {
	t.Parallel()
	srv, conns := server(t)
	results, err := Closed(srv.URL, targets(srv.URL, "/busy"), 2, 300*time.Millisecond, 100*time.Millisecond,
		func(code int) bool { return code == http.StatusServiceUnavailable })
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for res := range results {
		if res.Code != http.StatusServiceUnavailable {
			t.Errorf("%d %s", res.Code, res.Error)
		}
		n++
	}
	// Each connection sends at 0, 100 and 200 ms, and perhaps at 300.
	if n < 6 || n > 8 || conns.Load() != 2 {
		t.Errorf("%d answers on %d connections, want 6 to 8 on 2", n, conns.Load())
	}
}

func TestAFailedRequestIsAResult(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { // answers garbage, then hangs up
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = io.WriteString(c, "HTTP/9 what\r\n\r\n")
			c.Close()
		}
	}()
	t.Cleanup(func() { l.Close() })
	base := "http://" + l.Addr().String()
	results, err := Open(base, targets(base, "/"), 100, 2, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for res := range results {
		if res.Code != 0 || res.Error == "" {
			t.Errorf("a garbled answer gave %d %q", res.Code, res.Error)
		}
	}
	if _, err := Open("https://example.org", targets(base, "/"), 1, 1, time.Millisecond); err == nil {
		t.Error("Open of an https:// base: no error")
	}
}
