package sqldb

import (
	"context"
	"time"
)

// A shared transaction is not cancelled when one of its callers gives up:
// that would roll back the others' work. But it must not run forever
// either. If the database stops answering in the middle of a statement
// (a network partition, a frozen server), nothing else ends the wait, and
// every caller whose fn has started waits with it, far past its own
// deadline. So the group runs under the latest deadline of its callers:
// once that has passed no caller is still waiting for a useful answer, and
// the statement in flight is abandoned and the transaction rolled back,
// which each caller learns as its deadline's error. A group with a caller
// that has no deadline has none.
//
// SQLite's groups have none either (Dialect.NoGroupDeadline). Its writer
// is a file of this process, read and written by point statements: no
// network can freeze one, and sqlite3_interrupt could not end a write()
// that the disk stalls anyway. There a deadline only cost: given a
// context that can be done, database/sql starts two goroutines for each
// query to watch it and the driver one more, which with their mutexes and
// timers took about a tenth of the server's CPU under the movements
// benchmark, most of it on the one writer.

// groupContext is the context of a group's transaction: the latest
// deadline of batch, or none.
func (s *Store) groupContext(batch []*call) (context.Context, context.CancelFunc) {
	if s.d.NoGroupDeadline {
		return context.Background(), func() {}
	}
	var latest time.Time
	for _, c := range batch {
		d, ok := c.ctx.Deadline()
		if !ok {
			return context.Background(), func() {}
		}
		if d.After(latest) {
			latest = d
		}
	}
	return context.WithDeadline(context.Background(), latest)
}

// fnContext is what one fn of the group is given: its caller's values,
// and the group's deadline in place of its caller's cancellation.
type fnContext struct {
	context.Context                 // the group's
	values          context.Context // the caller's
}

func (c fnContext) Value(key any) any { return c.values.Value(key) }
