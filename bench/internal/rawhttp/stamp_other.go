//go:build !linux

package rawhttp

import (
	"net"
	"time"
)

// stamped is Linux's receive timestamps; elsewhere there are none, and
// Result.Wire stays zero.
type stamped struct{ net.Conn }

func newStamped(net.Conn) *stamped { return nil }

func (*stamped) received() time.Time { return time.Time{} }

func (*stamped) reset() {}
