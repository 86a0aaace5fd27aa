package postgres

import (
	"context"
	"encoding/binary"
	"net"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// When a connection breaks in use (the network or the server dropped it),
// pgx closes it in the background and first sends the server a cancel
// request on a new connection, waiting up to 15 seconds for the server to
// close that one. The pool does not free the broken connection's slot
// until then. If the server cannot be reached, every connection alive
// at the break holds its slot those 15 seconds, and the service stays down
// that long after the server is back.
//
// boundDial shortens that wait: every dial is bounded by the connect
// timeout, and a connection whose first message is a cancel request gets
// a deadline of cancelTimeout, a few round trips. A cancel sent through
// TLS cannot be recognised and keeps pgx's own bound.
const cancelTimeout = time.Second

// cancelRequestCode is the protocol's CancelRequest code, after the length.
const cancelRequestCode = 80877102

// boundDial wraps dial as described above.
func boundDial(dial pgconn.DialFunc, connectTimeout time.Duration) pgconn.DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, connectTimeout)
		defer cancel()
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &cancelConn{Conn: c}, nil
	}
}

// cancelConn watches the first message written on a connection.
type cancelConn struct {
	net.Conn
	written atomic.Bool
}

func (c *cancelConn) Write(p []byte) (int, error) {
	if !c.written.Swap(true) && len(p) >= 8 && binary.BigEndian.Uint32(p[4:8]) == cancelRequestCode {
		_ = c.Conn.SetDeadline(time.Now().Add(cancelTimeout))
	}
	return c.Conn.Write(p)
}
