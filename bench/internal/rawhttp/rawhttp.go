// Package rawhttp is a lean HTTP/1.1 load generator for the benchmark
// programs: each request is written as bytes straight to a kept-alive TCP
// connection of its own worker, and the answer is read back with
// http.ReadResponse. There is no http.Transport: no pool, no per-request
// goroutines, no context, no redirects.
//
// It exists because on the two cores of a development machine the load
// generator and the server it measures share the CPU. vegeta's client
// (net/http's Transport) spends, at thousands of requests a second, a
// large part of a core that the server's admitted requests then wait for
// (see bench/overload, which reports both processes' CPU). A server's
// clients are on other machines; the less the generator costs, the closer
// the figures come to what those clients would see.
//
// Latency is taken from the moment the request is written to the moment
// the last byte of its body is read, as vegeta takes it. On Linux each
// Result also has the wire latency: to the moment the kernel received the
// answer's last bytes, which leaves out the generator's own wait for a
// CPU before it reads them (see stamped). An open loop
// offers a fixed rate from a pacer; when every connection allowed waits
// for an answer the next request is late, and Results say how many were
// sent, so the achieved rate shows it.
package rawhttp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Timeout bounds one request, from its write to its last byte.
const Timeout = 30 * time.Second

// bodyKept is how much of an answer's body a Result keeps, as vegeta's
// MaxBody(160) in the programs that use both.
const bodyKept = 160

// Encode writes t as an HTTP/1.1 request on a kept-alive connection: the
// request line, Host, t's headers, Content-Length and the body.
func Encode(t vegeta.Target) ([]byte, error) {
	u, err := url.Parse(t.URL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("rawhttp: %q: only http:// is spoken", t.URL)
	}
	b := make([]byte, 0, 256+len(t.Body))
	b = fmt.Appendf(b, "%s %s HTTP/1.1\r\nHost: %s\r\n", t.Method, u.RequestURI(), u.Host)
	for k, vs := range t.Header {
		for _, v := range vs {
			b = fmt.Appendf(b, "%s: %s\r\n", k, v)
		}
	}
	if len(t.Body) > 0 || t.Method == http.MethodPost || t.Method == http.MethodPut || t.Method == http.MethodPatch {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(t.Body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	return append(b, t.Body...), nil
}

// Result is one request's, as vegeta's, with its wire latency.
type Result struct {
	vegeta.Result
	// Wire is from the request's write to the kernel's receive time of
	// its answer's last bytes; zero without receive timestamps (not
	// Linux) or without an answer.
	Wire time.Duration
}

// conn is one worker's connection, dialled when first needed and again
// after an error or a Connection: close.
type conn struct {
	addr string
	c    net.Conn
	s    *stamped // nil without receive timestamps
	r    *bufio.Reader
}

// do sends the request next makes and reads its answer into a Result;
// false when next has no more.
func (c *conn) do(next vegeta.Targeter) (*Result, bool) {
	var t vegeta.Target
	if err := next(&t); err != nil {
		return nil, false
	}
	res := &Result{Result: vegeta.Result{Method: t.Method, URL: t.URL, Timestamp: time.Now()}}
	req, err := Encode(t)
	if err == nil {
		var code int
		var received time.Time
		code, res.Body, received, err = c.roundTrip(req, t.Method)
		res.Code = uint16(code)
		if !received.IsZero() {
			res.Wire = max(received.Sub(res.Timestamp), 0)
		}
	}
	res.Latency = time.Since(res.Timestamp)
	if err != nil {
		c.close()
		res.Error = err.Error()
	}
	return res, true
}

// roundTrip writes req and reads its answer: the status, the first
// bodyKept bytes of the body, and the kernel's receive time of the last
// bytes (zero without one).
func (c *conn) roundTrip(req []byte, method string) (int, []byte, time.Time, error) {
	if c.c == nil {
		nc, err := net.DialTimeout("tcp", c.addr, Timeout)
		if err != nil {
			return 0, nil, time.Time{}, err
		}
		c.c, c.s = nc, newStamped(nc)
		if c.s != nil {
			c.r = bufio.NewReaderSize(c.s, 16<<10)
		} else {
			c.r = bufio.NewReaderSize(nc, 16<<10)
		}
	}
	if err := c.c.SetDeadline(time.Now().Add(Timeout)); err != nil {
		return 0, nil, time.Time{}, err
	}
	if c.s != nil {
		c.s.reset()
	}
	if _, err := c.c.Write(req); err != nil {
		return 0, nil, time.Time{}, err
	}
	r, err := http.ReadResponse(c.r, &http.Request{Method: method})
	if err != nil {
		return 0, nil, time.Time{}, err
	}
	var kept bytes.Buffer
	_, err = io.Copy(&kept, io.LimitReader(r.Body, bodyKept))
	if err == nil {
		_, err = io.Copy(io.Discard, r.Body)
	}
	r.Body.Close()
	if err != nil {
		return 0, nil, time.Time{}, err
	}
	var received time.Time
	if c.s != nil {
		received = c.s.received()
	}
	if r.Close {
		c.close()
	}
	return r.StatusCode, kept.Bytes(), received, nil
}

func (c *conn) close() {
	if c.c != nil {
		c.c.Close()
		c.c, c.s, c.r = nil, nil, nil
	}
}

// hostOf is the host:port to dial for base, an http:// URL.
func hostOf(base string) (string, error) {
	u, err := url.Parse(base)
	switch {
	case err != nil:
		return "", err
	case u.Scheme != "http" || u.Host == "":
		return "", errors.New("rawhttp: base must be an http://host:port URL")
	case u.Port() == "":
		return u.Host + ":80", nil
	}
	return u.Host, nil
}

// Closed is conns connections, each sending its next request as soon as
// its last is answered, or pause after an answer wait says to wait on
// (nil: never), for du or until next stops. The results channel is closed
// when every connection is done.
func Closed(base string, next vegeta.Targeter, conns int, du, pause time.Duration, wait func(code int) bool) (<-chan *Result, error) {
	addr, err := hostOf(base)
	if err != nil {
		return nil, err
	}
	results := make(chan *Result, conns)
	end := time.Now().Add(du)
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			c := &conn{addr: addr}
			defer c.close()
			for time.Now().Before(end) {
				res, ok := c.do(next)
				if !ok {
					return
				}
				results <- res
				if wait != nil && wait(int(res.Code)) {
					time.Sleep(pause)
				}
			}
		})
	}
	go func() { wg.Wait(); close(results) }()
	return results, nil
}
