package crash

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// openDB opens the database the server uses, for the test's own queries:
// the tags it issues once, and read-only queries after that.
func openDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	driver, source := "pgx", dsn
	if !strings.HasPrefix(dsn, "postgres://") {
		driver, source = "sqlite", "file:"+dsn+"?_pragma=busy_timeout(10000)&_txlock=immediate"
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// issueTags issues herd 442501's animal numbers firstTag–tagLimit, so
// that every registration the load makes wears a tag of its own. The
// server must have made the schema and the sandbox first.
func issueTags(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rows []string
	for n := firstTag; n <= tagLimit; n++ {
		rows = append(rows, fmt.Sprintf("('%s', '%s', 'Cattle', '2024-01-01')", keeper1.CalfTag(n), keeper1.HerdMark))
		if len(rows) == 1000 || n == tagLimit {
			if _, err := tx.ExecContext(ctx, "INSERT INTO issued_tags (identifier, mark, species, issued_on) VALUES "+
				strings.Join(rows, ", ")); err != nil {
				return fmt.Errorf("issue tags: %w", err)
			}
			rows = rows[:0]
		}
	}
	return tx.Commit()
}

// queuedSQL counts the jobs not yet done and the requests not yet final.
const queuedSQL = `SELECT (SELECT count(*) FROM jobs WHERE state = 'available')
	+ (SELECT count(*) FROM requests WHERE status = 'Pending')
	+ (SELECT count(*) FROM registrations WHERE status = 'Pending')`

// queued is what a kill left for the next start to finish, jobs not done:
// it shows that the kills interrupt the queue, not only the submissions.
func queued(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM jobs WHERE state = 'available'`).Scan(&n)
	return n, err
}

// drain waits until no job is queued and no request is Pending: polling,
// with a deadline that guards against a hang, not a performance target.
func drain(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		if err := db.QueryRowContext(ctx, queuedSQL).Scan(&n); err != nil {
			return fmt.Errorf("drain: %w", err)
		}
		if n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d jobs or requests still queued or Pending after a minute", n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
