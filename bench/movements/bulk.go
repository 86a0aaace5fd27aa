package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the driver Drover's store uses

	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/internal/store/sqldb"
)

// The three tables a movement fills, as multi-row INSERTs for SQLite: each
// row of values with ? for what varies and literals for what does not.
var sqliteTables = []struct {
	head, row string
	args      func(m movement) []any
}{
	{`INSERT INTO requests (id, type, status, user_name, request_date, updated_date, movement_date, movement_month,
		species, correlation_id, is_full_undone, undo_supported, content, errors, warnings, document_ref, holdings) VALUES `,
		`(?, 'TransferRequest', 'Success', ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, '[]', '[]', ?, ?)`,
		func(m movement) []any {
			return []any{m.ID, m.User, m.Requested.Format(sqldb.TimeFormat), m.Requested.Add(time.Minute).Format(sqldb.TimeFormat),
				m.Date.Format(sqldb.TimeFormat), sqldb.Month(m.Date), m.Species, m.CorrelationID, m.Content, m.DocRef,
				m.holdings()}
		}},
	{`INSERT INTO request_holdings (request_id, cph, type, movement_date, movement_month) VALUES `,
		`(?, ?, 'TransferRequest', ?, ?), (?, ?, 'TransferRequest', ?, ?)`,
		func(m movement) []any {
			d, month := m.Date.Format(sqldb.TimeFormat), sqldb.Month(m.Date)
			return []any{m.ID, m.Source, d, month, m.ID, m.Destination, d, month}
		}},
	{`INSERT INTO movements (id, request_id, user_name, species, source, destination, transfer_date, arrival_date,
		state, animal_count, flags, standstill) VALUES `, `(?, ?, ?, ?, ?, ?, ?, ?, 'Completed', ?, '[]', 0)`,
		func(m movement) []any {
			d := m.Date.Format(sqldb.DateFormat)
			return []any{m.ID, m.ID, m.User, m.Species, m.Source, m.Destination, d, d, m.Count}
		}},
}

const (
	batchRows = 200     // movements per INSERT statement
	txRows    = 100_000 // movements per transaction
)

// insertSQLite writes movements 1..n on one connection of its own, with
// synchronous=OFF for the build only (the pragma is the connection's; it
// is set back, and the server opens its own connections with FULL).
func insertSQLite(ctx context.Context, path string, n, h int) error {
	conn, done, err := database.BulkSQLite(ctx, path, "PRAGMA synchronous=OFF", "PRAGMA cache_size=-1048576")
	if err != nil {
		return err
	}
	defer done()
	for from := 1; from <= n; from += txRows {
		if err := sqliteTx(ctx, conn, from, min(from+txRows-1, n), n, h); err != nil {
			return err
		}
	}
	return database.ExecAll(ctx, conn, "PRAGMA synchronous=FULL", "PRAGMA wal_checkpoint(TRUNCATE)")
}

// sqliteTx writes movements from..to in one transaction.
func sqliteTx(ctx context.Context, conn *sql.Conn, from, to, n, h int) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := map[int][]*sql.Stmt{} // by batch size, one per table
	for lo := from; lo <= to; lo += batchRows {
		hi := min(lo+batchRows-1, to)
		size := hi - lo + 1
		if stmts[size] == nil {
			for _, t := range sqliteTables {
				st, err := tx.PrepareContext(ctx, t.head+strings.Repeat(t.row+", ", size-1)+t.row)
				if err != nil {
					return err
				}
				defer st.Close()
				stmts[size] = append(stmts[size], st)
			}
		}
		batch := make([]movement, 0, size)
		for id := lo; id <= hi; id++ {
			batch = append(batch, movementOf(int64(id), n, h))
		}
		for i, t := range sqliteTables {
			var args []any
			for _, m := range batch {
				args = append(args, t.args(m)...)
			}
			if _, err := stmts[size][i].ExecContext(ctx, args...); err != nil {
				return fmt.Errorf("insert movements %d–%d: %w", lo, hi, err)
			}
		}
	}
	return tx.Commit()
}
