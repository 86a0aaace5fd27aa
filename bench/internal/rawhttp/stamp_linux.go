package rawhttp

import (
	"encoding/binary"
	"io"
	"net"
	"syscall"
	"time"
)

// stamped reads a TCP connection with recvmsg and keeps the kernel's
// receive time (SO_TIMESTAMPNS) of the last bytes it read: when the
// answer reached this machine's network stack, whether or not this
// process was running then. Taking the time after the read instead adds
// the generator's own wait for a CPU, which on a shared machine is part
// of what the server is blamed for.
type stamped struct {
	rc   syscall.RawConn
	oob  []byte
	last time.Time // zero until a read carried a stamp
}

// newStamped asks the kernel to stamp c's received bytes; nil when c is
// not a TCP connection or the kernel refuses.
func newStamped(c net.Conn) *stamped {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TIMESTAMPNS, 1)
	}); err != nil || serr != nil {
		return nil
	}
	return &stamped{rc: rc, oob: make([]byte, syscall.CmsgSpace(timespecSize))}
}

// timespecSize is a struct timespec's size on a 64-bit kernel: two
// 64-bit words, seconds and nanoseconds.
const timespecSize = 16

// Read is one recvmsg, waiting (within the connection's deadline) until
// there is something to read.
func (s *stamped) Read(p []byte) (int, error) {
	var n, oobn int
	var rerr error
	err := s.rc.Read(func(fd uintptr) bool {
		n, oobn, _, _, rerr = syscall.Recvmsg(int(fd), p, s.oob, 0)
		return rerr != syscall.EAGAIN
	})
	switch {
	case err != nil:
		return 0, err
	case rerr != nil:
		return 0, rerr
	case n == 0 && len(p) > 0:
		return 0, io.EOF
	}
	if msgs, err := syscall.ParseSocketControlMessage(s.oob[:oobn]); err == nil {
		for _, m := range msgs {
			if m.Header.Level == syscall.SOL_SOCKET && m.Header.Type == syscall.SCM_TIMESTAMPNS && len(m.Data) == timespecSize {
				s.last = time.Unix(int64(binary.NativeEndian.Uint64(m.Data)), int64(binary.NativeEndian.Uint64(m.Data[8:])))
			}
		}
	}
	return n, nil
}

// received is the kernel's receive time of the last bytes read since
// reset; zero if none carried one.
func (s *stamped) received() time.Time { return s.last }

// reset forgets the last receive time, before a request is written.
func (s *stamped) reset() { s.last = time.Time{} }
