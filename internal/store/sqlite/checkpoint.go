package sqlite

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// Checkpoints. In WAL mode a commit appends pages to the -wal file; a
// checkpoint copies them back into the database file and syncs it, so
// that the WAL can start again from its beginning. By default SQLite runs
// the checkpoint inside the commit that takes the WAL past 1,000 pages,
// on the writer's connection: under load that was every few hundred
// milliseconds, and every transaction of the group commit waiting behind
// it waited for the copy and a second fsync too, the slowest commits of
// the movements benchmark.
//
// Here a connection of its own checkpoints in the background instead
// (PASSIVE: it copies what no reader still needs, and never blocks the
// writer or a reader), every checkpointEvery. The writer keeps an
// automatic checkpoint as a backstop, at writerCheckpointPages, for a
// background checkpoint that falls behind. Durability is unchanged: a
// commit is on disk once its WAL frames are synced, whoever copies them
// later.
const (
	checkpointEvery       = 100 * time.Millisecond
	writerCheckpointPages = 16000 // 64 MiB of 4 KiB pages
)

// checkpointer runs PASSIVE checkpoints on db until stopped.
type checkpointer struct {
	db     *sql.DB
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// startCheckpointer opens a connection to path for checkpoints and starts
// the loop on it.
func startCheckpointer(path string, params string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", path+"?"+params)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{db: db, cancel: cancel}
	c.done.Go(func() { c.loop(ctx) })
	return c, nil
}

func (c *checkpointer) loop(ctx context.Context) {
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// A failed checkpoint loses nothing (the frames stay in the WAL)
		// and the next tick tries again; the writer's backstop covers a
		// checkpointer that keeps failing.
		var busy, logged, copied int
		_ = c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logged, &copied)
	}
}

// stop ends the loop and closes the connection.
func (c *checkpointer) stop() error {
	c.cancel()
	c.done.Wait()
	return c.db.Close()
}
