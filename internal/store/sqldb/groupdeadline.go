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

// groupContext is the context of a group's transaction: the latest
// deadline of batch, or none.
func groupContext(batch []*call) (context.Context, context.CancelFunc) {
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
