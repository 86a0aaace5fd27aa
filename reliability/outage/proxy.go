// Package outage checks how Drover behaves while its PostgreSQL server is
// out of reach: answers are 503 (or 504 when a query outlives the request
// timeout), never 500 and never a hang; /readyz turns unready; the service
// recovers by itself once the database is back, and loses nothing it
// acknowledged. The server under test runs as a child process, the way it
// runs in production; the outage is made by Proxy, a TCP relay between the
// service and the database that can be cut and restored, since the
// database server is shared with every other test and must stay up.
package outage

import (
	"net"
	"sync"
)

// Mode is what a cut proxy does with a new connection.
type Mode int

const (
	// Refuse closes a new connection at once, as a stopped server's host
	// answers with a reset: the client learns of the outage immediately.
	Refuse Mode = iota
	// Blackhole accepts a new connection and never forwards a byte, as a
	// network that drops packets does: only the client's own timeouts end
	// its wait.
	Blackhole
	// Stall is Blackhole for the connections already open too: they stay
	// open but carry nothing, as in a network partition, until Restore
	// lets what they hold through (TCP's retransmission, in a real one).
	Stall
)

func (m Mode) String() string {
	return [...]string{"refuse", "blackhole", "stall"}[m]
}

// Proxy relays TCP connections from its own address to a target. Cut
// closes every relayed connection and treats new ones by its Mode until
// Restore.
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	flow   *sync.Cond // signalled when a stall ends
	cut    bool
	mode   Mode
	closed bool
	conns  map[net.Conn]struct{} // both ends of every live relay, and held blackholed conns
	wg     sync.WaitGroup
}

// NewProxy listens on a loopback port and relays to target (host:port).
func NewProxy(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.flow = sync.NewCond(&p.mu)
	p.wg.Go(p.accept)
	return p, nil
}

// Addr is the proxy's host:port, to put in the service's database URL.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Cut closes every relayed connection (stalls it, for Stall) and, until
// Restore, refuses or blackholes new ones as mode says.
func (p *Proxy) Cut(mode Mode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut, p.mode = true, mode
	if mode == Stall {
		return
	}
	for c := range p.conns {
		_ = c.Close()
		delete(p.conns, c)
	}
}

// Restore relays new connections again. Connections blackholed during the
// cut stay silent, as a connection whose packets were lost does: the
// client must give up on them by itself.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
	p.flow.Broadcast()
}

// Close stops listening and closes every connection.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	p.closed = true
	p.flow.Broadcast()
	p.mu.Unlock()
	p.Cut(Refuse)
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut, mode := p.cut, p.mode
		if cut && mode != Refuse {
			p.conns[c] = struct{}{} // held open, read by nobody, until Close
		}
		p.mu.Unlock()
		switch {
		case cut && mode == Refuse:
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // a reset, not an orderly close
			}
			_ = c.Close()
		case !cut:
			p.wg.Go(func() { p.relay(c) })
		}
	}
}

// relay connects c to the target and copies both ways until either side
// closes or the proxy is cut.
func (p *Proxy) relay(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	if p.cut { // cut while dialling
		p.mu.Unlock()
		_ = c.Close()
		_ = up.Close()
		return
	}
	p.conns[c], p.conns[up] = struct{}{}, struct{}{}
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		defer func() { done <- struct{}{} }()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 && (!p.flowing() || !write(dst, buf[:n])) {
				return
			}
			if err != nil {
				return
			}
		}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
	_ = c.Close()
	_ = up.Close()
	<-done
}

// flowing waits while the proxy is stalled, and reports false once it is
// closed.
func (p *Proxy) flowing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.cut && p.mode == Stall && !p.closed {
		p.flow.Wait()
	}
	return !p.closed
}

func write(dst net.Conn, b []byte) bool {
	_, err := dst.Write(b)
	return err == nil
}
