package rawhttp

import (
	"io"
	"net"
	"testing"
	"time"
)

// The receive time is when the bytes reached the kernel, not when they
// were read: a reader that comes late still gets the earlier time.
//
// The kernel turns stamping on for the whole machine some moments after
// the first socket asks (net_enable_timestamp defers it), so the first
// bytes may come without a stamp: the exchange is repeated, and every
// stamp given must be right.
func TestStampedIsTheKernelsReceiveTime(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	written := make(chan struct{})
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for b := make([]byte, 1); ; {
			if _, err := c.Read(b); err != nil {
				return
			}
			_, _ = c.Write([]byte("hello"))
			written <- struct{}{}
		}
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := newStamped(c)
	if s == nil {
		t.Fatal("newStamped: nil on a TCP connection")
	}
	stamps := 0
	for range 50 {
		s.reset()
		begun := time.Now()
		if _, err := c.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		<-written
		arrived := time.Now() // the server's write returned: the bytes are in this end's buffer
		time.Sleep(2 * time.Millisecond)
		buf := make([]byte, 16)
		n, err := io.ReadAtLeast(s, buf, 5)
		if err != nil || string(buf[:n]) != "hello" {
			t.Fatalf("read %q, %v", buf[:n], err)
		}
		got := s.received()
		if got.IsZero() {
			continue
		}
		stamps++
		if got.Before(begun) || got.After(arrived) {
			t.Errorf("received at %v, want between %v and %v (read at about %v)", got, begun, arrived, time.Now())
		}
	}
	if stamps == 0 {
		t.Error("no read carried a receive time")
	}
	s.reset()
	if !s.received().IsZero() {
		t.Errorf("after reset: %v, want zero", s.received())
	}
}
