package groupcommit_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/drover-registry/drover/internal/store/sqldb/groupcommit"
)

// The tests run groups on a SQLite file with one table, without Drover's
// schema: each fn writes a row of kv. The fns are given the pass's
// transaction itself.

// bundle is what setup returns.
type bundle struct {
	g    *groupcommit.Group[*groupcommit.Tx]
	pool *groupcommit.Pool
}

// setup opens a database in a temporary directory, with a writer of one
// connection as Drover's SQLite store has, and starts a group on it with
// c's hooks; the group is stopped and the pool closed when the test ends.
func setup(t *testing.T, c groupcommit.Config[*groupcommit.Tx]) *bundle {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "kv.db")+"?_journal_mode=WAL&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if c.Pool == nil {
		c.Pool = groupcommit.NewPool(db, false)
	}
	c.Pass = func(tx *groupcommit.Tx) *groupcommit.Tx { return tx }
	if c.Buckets == nil {
		c.Buckets = []time.Duration{time.Millisecond, 25 * time.Millisecond, time.Second}
	}
	b := &bundle{g: groupcommit.New(c), pool: c.Pool}
	t.Cleanup(func() {
		b.g.Stop()
		_ = b.pool.Close()
	})
	return b
}

// put is a fn that writes k.
func put(k string) func(context.Context, *groupcommit.Tx) error {
	return func(ctx context.Context, tx *groupcommit.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO kv (k, v) VALUES ($1, 1)`, k)
		return err
	}
}

// rows counts the rows of kv whose key is k.
func (b *bundle) rows(t *testing.T, k string) int {
	t.Helper()
	var n int
	if err := b.pool.QueryRowContext(t.Context(), `SELECT count(*) FROM kv WHERE k = $1`, k).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// hold takes every committer with a fn that waits, so that the calls made
// meanwhile queue up; release lets the first go, which takes every call
// queued by then into one group, then the others.
func (b *bundle) hold(t *testing.T) (release func()) {
	t.Helper()
	n := b.g.Committers()
	frees, dones := make([]chan struct{}, n), make([]chan error, n)
	for i := range n { // one at a time, so that each takes a committer of its own
		held := make(chan struct{})
		frees[i], dones[i] = make(chan struct{}), make(chan error, 1)
		go func() {
			dones[i] <- b.g.Run(t.Context(), func(context.Context, *groupcommit.Tx) error {
				close(held)
				<-frees[i]
				return nil
			}, groupcommit.Options{})
		}()
		<-held
	}
	return func() {
		for i := range n {
			close(frees[i])
			if err := <-dones[i]; err != nil {
				t.Errorf("Run holding committer %d: %v", i, err)
			}
		}
	}
}

// waitQueued waits until n calls wait for a committer, but not for ever:
// a queue that cannot take them must fail the test, not hang it.
func (b *bundle) waitQueued(n int) {
	for wait := time.Now(); b.g.Queued() < n && time.Since(wait) < 30*time.Second; {
		time.Sleep(time.Millisecond)
	}
}

// runAll runs each fn from a goroutine of its own while the committers are
// held, then lets them go, and returns what each Run returned.
func (b *bundle) runAll(t *testing.T, o []groupcommit.Options, fns ...func(context.Context, *groupcommit.Tx) error) []error {
	t.Helper()
	release := b.hold(t)
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		opts := groupcommit.Options{}
		if o != nil {
			opts = o[i]
		}
		wg.Go(func() { errs[i] = b.g.Run(t.Context(), fn, opts) })
	}
	b.waitQueued(len(fns))
	release()
	wg.Wait()
	return errs
}
