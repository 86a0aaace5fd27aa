package groupcommit

import (
	"fmt"
	"time"
)

// Durability after the commit (Config.Sync). On SQLite a COMMIT with
// synchronous=FULL waits for the fsync of the WAL, and the one committer
// can run no statement meanwhile. With Sync set the database commits
// without waiting for the disk (synchronous=NORMAL), the committer goes on
// to its next group at once, and the syncer makes the groups committed so
// far durable with one Sync before their callers are told: a caller still
// hears of nothing before it is on disk, and the disk's wait overlaps the
// next group's statements instead of following them.

// committed is a group handed to the syncer: its calls and what each is
// to be told once the group is durable.
type committed[S any] struct {
	batch []*call[S]
	errs  []error
}

// syncLen is how many groups may wait for the syncer before a committer
// waits on it: a disk slower than the statements slows the committers
// down rather than letting groups pile up.
const syncLen = 16

// settle tells batch's callers errs: at once, or once the group is
// durable when the group syncs. It reports whether batch was handed on,
// so that the committer must not reuse it.
func (g *Group[S]) settle(batch []*call[S], errs []error) (handedOn bool) {
	if g.toSync == nil {
		for i, c := range batch {
			c.done <- errs[i]
		}
		return false
	}
	g.toSync <- committed[S]{batch: batch, errs: errs}
	return true
}

// syncer makes the groups handed to it durable, every group waiting at
// that moment with one Sync, and then tells their callers, until the
// committers have stopped. A failed Sync stops the process: after a
// failed fsync the kernel may have dropped the pages it could not write
// and marked them clean, so a later Sync would succeed without them, and
// neither an error (which would tell the callers nothing was committed)
// nor a success is true. A restart recovers what is on disk, and no
// caller was told of what it may lack. PostgreSQL stops alike.
func (g *Group[S]) syncer() {
	var due []committed[S]
	for first := range g.toSync {
		due = append(due[:0], first)
	more:
		for {
			select {
			case next, ok := <-g.toSync:
				if !ok {
					break more
				}
				due = append(due, next)
			default:
				break more
			}
		}
		g.Sync()
		for _, d := range due {
			for i, c := range d.batch {
				c.done <- d.errs[i]
			}
		}
		clear(due)
	}
}

// Sync makes durable what the pool has committed, for a write that went
// to it outside Run; it stops the process when that fails, as the syncer
// does. Without Config.Sync there is nothing to do.
func (g *Group[S]) Sync() {
	if g.cfg.Sync == nil {
		return
	}
	start := time.Now()
	if err := g.cfg.Sync(); err != nil {
		panic(fmt.Sprintf("groupcommit: committed transactions could not be made durable: %v; "+
			"stopping, so that nothing is acknowledged that a restart might not find", err))
	}
	g.stats.syncTime.observe(time.Since(start))
	g.stats.syncs.Add(1)
}
