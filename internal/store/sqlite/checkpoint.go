package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"
)

// checkpointEvery is how often the checkpointer copies the WAL back into
// the database file.
const checkpointEvery = 200 * time.Millisecond

// checkpointer copies committed pages from the WAL back into the database
// file, from a connection of its own, so that no write waits for it.
//
// By default SQLite checkpoints inside the COMMIT that takes the WAL past
// 1,000 pages: that commit writes the pages into the database file and
// fsyncs it before it returns, and every write of its group commit waits
// for it. The writer is opened with wal_autocheckpoint(0) instead, and
// this goroutine runs a PASSIVE checkpoint every checkpointEvery: it copies
// what no reader still needs, never waits for a lock, and never blocks the
// writer. Durability does not rest on it: a commit is on disk once its WAL
// frames are (synchronous=FULL); a checkpoint only moves them.
type checkpointer struct {
	db   *sql.DB
	stop context.CancelFunc
	done sync.WaitGroup
}

// startCheckpointer opens its connection to the file at path, turns off
// the checkpoints of the writer w (its one connection) and starts the loop.
// Migrations, which run before, keep SQLite's own checkpoints, and so does
// a writer connection that the pool had to open again: they are the safe
// default, only slower.
func startCheckpointer(ctx context.Context, path string, w *sql.DB) (*checkpointer, error) {
	q := url.Values{"_busy_timeout": {"10000"}, "_synchronous": {"FULL"}}
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, openError(path, err)
	}
	if _, err := w.ExecContext(ctx, "PRAGMA wal_autocheckpoint(0)"); err != nil {
		_ = db.Close()
		return nil, openError(path, err)
	}
	loop, stop := context.WithCancel(context.Background())
	c := &checkpointer{db: db, stop: stop}
	c.done.Go(func() { c.run(loop) })
	return c, nil
}

func (c *checkpointer) run(ctx context.Context) {
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := c.checkpoint(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("sqlite: checkpoint", "err", err)
		}
	}
}

// checkpoint runs one PASSIVE checkpoint.
func (c *checkpointer) checkpoint(ctx context.Context) error {
	var busy, frames, copied int
	return c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
}

// Close stops the loop and closes the connection.
func (c *checkpointer) Close() error {
	c.stop()
	c.done.Wait()
	return c.db.Close()
}
