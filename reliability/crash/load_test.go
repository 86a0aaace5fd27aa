package crash

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/drover-registry/drover/reliability/internal/harness"
)

// outcome is what the client learnt of a request.
type outcome int

const (
	unknown outcome = iota // no answer: the connection failed, or the server was killed mid-flight
	acked                  // 200, 201 or 202, body read in full
	refused                // any other answer: nothing may have been kept
)

// entry is one request sent, and what came of it.
type entry struct {
	cycle  int
	kind   kind
	corr   string // X-Correlation-ID, unique; a transfer's trackingId too
	tag    string // the calf registered, or the sheep moved
	body   []byte
	status int    // the HTTP status, 0 when unknown
	answer []byte // the body of the answer
	id     string // the requestId (transfer) or registration id (async) acknowledged
	err    string // why the outcome is unknown
	resent bool   // unknown, and sent again once the server was back
	outcome
}

// client posts requests as keeper1.
type client struct {
	base, token string
	http        *http.Client
}

func newClient(base, token string) *client {
	// A transport of its own each run: a killed server's connections must
	// not be reused; the timeout is a guard against a hung server.
	return &client{base: base, token: token, http: &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}}
}

// post sends e and records its outcome.
func (c *client) post(ctx context.Context, e *entry) {
	path := "/v1/animals"
	if e.kind == transfer {
		path = "/v1/TransferRequests"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(e.body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Correlation-ID", e.corr)
	if e.kind == asyncReg {
		req.Header.Set("x-Request-Mode", "async")
	}
	e.outcome, e.status, e.answer, e.id, e.err = unknown, 0, nil, "", ""
	res, err := c.http.Do(req)
	if err != nil {
		e.err = err.Error()
		return
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.err = err.Error()
		return
	}
	e.status, e.answer = res.StatusCode, b
	want := map[kind]int{transfer: http.StatusCreated, syncReg: http.StatusOK, asyncReg: http.StatusAccepted}[e.kind]
	switch {
	case res.StatusCode == http.StatusServiceUnavailable && bytes.Contains(b, []byte(`"R003"`)):
		e.outcome = refused // shed before any work: nothing may have been kept
		return
	case res.StatusCode >= 500:
		e.err = fmt.Sprintf("%d %.200s", res.StatusCode, b) // the outcome is the server's secret
		return
	case res.StatusCode != want:
		e.outcome = refused
		return
	}
	if e.id, err = ackID(e.kind, b); err != nil {
		e.err = fmt.Sprintf("%d with an unreadable body: %v", res.StatusCode, err)
		return
	}
	e.outcome = acked
}

// ackID reads what an acknowledgement names: a transfer's requestId, an
// async registration's id, a sync registration's animal. (One struct for
// all three would not do: encoding/json matches names in any letter case,
// and the 202 carries both requestid and id.)
func ackID(k kind, body []byte) (string, error) {
	switch k {
	case transfer:
		var ack struct {
			RequestID int64 `json:"requestId"`
		}
		err := json.Unmarshal(body, &ack)
		return strconv.FormatInt(ack.RequestID, 10), err
	case asyncReg:
		var ack struct {
			ID string `json:"id"`
		}
		err := json.Unmarshal(body, &ack)
		return ack.ID, err
	}
	var ack struct {
		Identifier string `json:"identifier"`
	}
	err := json.Unmarshal(body, &ack)
	return ack.Identifier, err
}

// cycle runs n clients posting new requests from g until the server is
// killed, a random 100–1500 ms after they start (or, on a machine so busy
// that nothing was acknowledged by then, at the first acknowledgement); it
// returns every request sent, and whether the SIGKILL is what ended the
// server.
func cycle(srv *harness.Server, token string, g *generator, n, number int) ([]*entry, bool) {
	ctx, cancel := context.WithCancel(context.Background())
	c := newClient(srv.URL, token)
	var mu sync.Mutex
	var sent []*entry
	first, once := make(chan struct{}), sync.Once{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				e := g.next(number)
				c.post(context.Background(), e)
				if e.outcome == acked {
					once.Do(func() { close(first) })
				}
				mu.Lock()
				sent = append(sent, e)
				mu.Unlock()
			}
		})
	}
	// The kill is the test's subject, at a random moment; the first
	// acknowledgement is waited for (with a guard) so that every cycle
	// has something to lose.
	time.Sleep(time.Duration(100+rand.IntN(1401)) * time.Millisecond)
	select {
	case <-first:
	case <-time.After(30 * time.Second):
	}
	cancel() // no new request; those in flight meet the kill
	killed := srv.Kill()
	wg.Wait()
	c.http.CloseIdleConnections()
	return sent, killed
}
