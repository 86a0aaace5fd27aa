package groupcommit

// commit is committer number i: it runs groups of calls until both queues
// are closed and empty.
func (g *Group[S]) commit(i int) {
	batch := make([]*call[S], 0, MaxGroup)
	for {
		batch = g.gather(batch[:0], i)
		if len(batch) == 0 {
			return
		}
		careful := false
		if n := g.careful.Load(); n > 0 {
			careful = true
			g.careful.CompareAndSwap(n, n-1)
		}
		errs, failed := g.runGroup(batch, careful)
		// A group that defers writes always runs the optimistic pass
		// first: it costs a round trip or two, and it learns the keys by
		// which the pass with savepoints orders its calls (passOrder).
		if failed && g.cfg.ExecBatch == nil {
			g.careful.Store(afterFailure)
		}
		for i, c := range batch {
			c.done <- errs[i]
		}
		clear(batch)
	}
}

// gather waits for a call, then takes every foreground call waiting, up
// to MaxGroup, and background calls after them: MaxBackground in all if
// the group has a foreground call, else as many as fit. It returns batch
// empty once both queues are closed and drained.
//
// With several committers a group holds calls of one queue only, and half
// of the committers look at the background queue first: a job locks rows
// and waits on the locks of other groups' jobs (sqldb's Dialect.AnimalsLock), and
// submissions sharing its group would wait with it while another
// committer could commit them. The jobs keep the committers that prefer
// them, so they neither starve nor hold up the submissions.
func (g *Group[S]) gather(batch []*call[S], committer int) []*call[S] {
	fg, bg := g.calls, g.background
	separate := g.committers > 1
	preferBackground := separate && committer%2 == 1
	var first *call[S]
	firstBackground := false
	for first == nil && (fg != nil || bg != nil) {
		if preferBackground {
			select { // a background call first, if one is waiting
			case c, ok := <-bg:
				if !ok {
					bg = nil
				}
				first, firstBackground = c, c != nil
				continue
			default:
			}
		}
		select { // a foreground call first, if one is waiting
		case c, ok := <-fg:
			if !ok {
				fg = nil
			}
			first = c
			continue
		default:
		}
		select {
		case c, ok := <-fg:
			if !ok {
				fg = nil
			}
			first = c
		case c, ok := <-bg:
			if !ok {
				bg = nil
			}
			first, firstBackground = c, c != nil
		}
	}
	if first == nil {
		return batch
	}
	batch = append(batch, first)
	if separate {
		if firstBackground {
			return take(batch, bg, MaxGroup)
		}
		return take(batch, fg, MaxGroup)
	}
	batch = take(batch, fg, MaxGroup)
	backgrounds := 0
	if firstBackground {
		backgrounds = 1
	}
	room := MaxGroup
	if foregrounds := len(batch) - backgrounds; foregrounds > 0 {
		room = min(MaxGroup, len(batch)+max(MaxBackground, foregrounds)-backgrounds)
	}
	return take(batch, bg, room)
}

// take appends the calls waiting on q to batch, without blocking, until
// batch holds n.
func take[S any](batch []*call[S], q chan *call[S], n int) []*call[S] {
	for q != nil && len(batch) < n {
		select {
		case c, ok := <-q:
			if !ok {
				return batch
			}
			batch = append(batch, c)
		default:
			return batch
		}
	}
	return batch
}
