package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/internal/store/sqldb"
)

// pgTables are the three tables a movement fills, for COPY: rows of each
// per movement, and the values of the i-th.
var pgTables = []struct {
	name    string
	columns []string
	rows    int
	values  func(m movement, i int) []any
}{
	{"requests", []string{"id", "type", "status", "user_name", "request_date", "updated_date", "movement_date",
		"movement_month", "species", "correlation_id", "is_full_undone", "undo_supported", "content", "errors", "warnings",
		"document_ref", "holdings"}, 1,
		func(m movement, _ int) []any {
			return []any{m.ID, "TransferRequest", "Success", m.User, m.Requested, m.Requested.Add(time.Minute), m.Date,
				int32(sqldb.Month(m.Date)), m.Species, m.CorrelationID, false, false, m.Content, "[]", "[]", m.DocRef,
				m.holdings()}
		}},
	{"request_holdings", []string{"request_id", "cph", "type", "movement_date", "movement_month"}, 2,
		func(m movement, i int) []any {
			return []any{m.ID, [2]string{m.Source, m.Destination}[i], "TransferRequest", m.Date, int32(sqldb.Month(m.Date))}
		}},
	{"movements", []string{"id", "request_id", "user_name", "species", "source", "destination", "transfer_date",
		"arrival_date", "state", "animal_count", "flags", "standstill"}, 1,
		func(m movement, _ int) []any {
			return []any{m.ID, m.ID, m.User, m.Species, m.Source, m.Destination, m.Date, m.Date, "Completed",
				m.Count, "[]", false}
		}},
}

// copyPostgres writes movements 1..n with COPY, in one transaction, moves
// the request id sequence past them, and vacuums and analyses the tables,
// as autovacuum would have by the time a registry had grown this large.
func copyPostgres(ctx context.Context, dsn string, n, h int) error {
	conn, err := database.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	for _, t := range pgTables {
		id, left := int64(0), 0
		var m movement
		src := pgx.CopyFromFunc(func() ([]any, error) {
			if left == 0 {
				if id == int64(n) {
					return nil, nil
				}
				id++
				m, left = movementOf(id, n, h), t.rows
			}
			left--
			return t.values(m, t.rows-1-left), nil
		})
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, t.columns, src); err != nil {
			return fmt.Errorf("copy %s: %w", t.name, err)
		}
	}
	if _, err := tx.Exec(ctx, "SELECT setval(pg_get_serial_sequence('requests', 'id'), $1)", n); err != nil {
		return fmt.Errorf("move the request id sequence: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, "VACUUM (ANALYZE) requests, request_holdings, movements")
	return err
}

// vacuumPostgres vacuums the tables an earlier run of the benchmark wrote
// to, before a kept registry is measured again (--skip-build). Each run
// leaves hundreds of thousands of dead rows in jobs and requests (a job
// is updated once it has run, a request once its job has applied it);
// autovacuum would remove them between runs, but this machine's
// PostgreSQL runs with autovacuum off, and without this each run measured
// the last one's leftovers too: the POSTs slowed from 4,100 to 2,900 a
// second over six runs, as every claim of a job walked the dead entries
// at the head of the queue's index.
func vacuumPostgres(ctx context.Context, dsn string) error {
	cfg, err := pgxpool.ParseConfig(dsn) // the URL may hold the pool's settings
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, "VACUUM (ANALYZE) jobs, requests, request_holdings, movements, movement_devices, replies")
	return err
}
