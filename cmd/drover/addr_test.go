package main

import (
	"net"
	"testing"
)

// TestReachableAddr: the sandbox issuer's name (and the discovery
// document's endpoints) come from the listener when --public-url is empty;
// a listener on every interface must not name them http://[::]:port.
func TestReachableAddr(t *testing.T) {
	for _, c := range []struct {
		addr *net.TCPAddr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "localhost:8080"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "localhost:8080"},
		{&net.TCPAddr{Port: 8080}, "localhost:8080"},
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "127.0.0.1:8080"},
		{&net.TCPAddr{IP: net.ParseIP("::1"), Port: 9}, "[::1]:9"},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 443}, "192.0.2.7:443"},
	} {
		if got := reachableAddr(c.addr); got != c.want {
			t.Errorf("reachableAddr(%v) = %q, want %q", c.addr, got, c.want)
		}
	}
}
