package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the driver Drover's store uses

	"github.com/drover-registry/drover/bench/internal/database"
)

// A synthetic registry is written only into the tables tracing reads:
// holdings, animals, movements and their devices and batch lines. A
// movement's request row is not written (PostgreSQL is told to skip the
// foreign key for the build, SQLite does not check it on this connection).

// tables are the rows of each table that a movement or an animal makes.
var tables = []struct {
	name    string
	columns []string
	rows    func(r *row, a *animal) [][]any // r or a is nil
}{
	{"movements", []string{"id", "request_id", "user_name", "species", "source", "destination", "review_holding", "transfer_date",
		"arrival_date", "state", "animal_count", "flags", "standstill"}, func(r *row, _ *animal) [][]any {
		if r == nil {
			return nil
		}
		var review, arrival any
		if r.State == "PendingReview" {
			review = cph(r.Destination)
		} else {
			arrival = r.Arrival
		}
		return [][]any{{r.ID, r.ID, "bench", r.Species, cph(r.Source), cph(r.Destination), review, r.Transfer, arrival, r.State,
			len(r.Devices) + r.Batch, "[]", false}}
	}},
	{"movement_devices", []string{"movement_id", "position", "identifier", "rfid", "prior_cph", "prior_on_since", "outcome"},
		func(r *row, _ *animal) [][]any {
			if r == nil {
				return nil
			}
			var out [][]any
			for i, d := range r.Devices {
				out = append(out, []any{r.ID, i, d.Tag, "", cph(d.Prior), d.PriorOnSince, outcome(r.State)})
			}
			return out
		}},
	{"movement_batches", []string{"movement_id", "position", "batch_number", "animal_total", "accepted", "batch_movement_id"},
		func(r *row, _ *animal) [][]any {
			if r == nil || r.Batch == 0 {
				return nil
			}
			accepted := 0
			if r.State == "Completed" || r.State == "Accepted" {
				accepted = r.Batch
			}
			return [][]any{{r.ID, 0, r.BatchNumber, r.Batch, accepted, r.ID}}
		}},
	{"animals", []string{"identifier", "species", "sex", "birth_date", "cph", "on_since", "state"}, func(_ *row, a *animal) [][]any {
		if a == nil {
			return nil
		}
		return [][]any{{a.Tag, "Cattle", "female", a.Born, cph(a.Holding), a.Since, "registered"}}
	}},
}

func outcome(state string) string {
	switch state {
	case "PendingReview":
		return ""
	case "Rejected":
		return "rejected"
	}
	return "accepted"
}

// holdingRows are the holdings, markets first, then abattoirs, then farms.
func holdingRows(s shape) [][]any {
	out := make([][]any, s.Holdings)
	for i := range out {
		t := "producer"
		switch {
		case s.isMarket(i):
			t = "saleYard"
		case i < s.markets()+s.abattoirs():
			t = "abattoir"
		}
		out[i] = []any{cph(i), t}
	}
	return out
}

// copyPostgres writes the registry with COPY, one pass of the generator per
// table, then vacuums and analyses, as autovacuum would have by the time a
// registry had grown this large.
func copyPostgres(ctx context.Context, dsn string, s shape) error {
	conn, err := database.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SET session_replication_role = replica"); err != nil {
		return err
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"holdings"}, []string{"cph", "type"}, pgx.CopyFromRows(holdingRows(s))); err != nil {
		return fmt.Errorf("copy holdings: %w", err)
	}
	for _, t := range tables {
		rows := make(chan []any, 4096)
		go func() {
			defer close(rows)
			generate(s, func(r row) {
				for _, v := range t.rows(&r, nil) {
					rows <- pgValues(v)
				}
			}, func(a animal) {
				for _, v := range t.rows(nil, &a) {
					rows <- pgValues(v)
				}
			})
		}()
		src := pgx.CopyFromFunc(func() ([]any, error) {
			if v, ok := <-rows; ok {
				return v, nil
			}
			return nil, nil
		})
		_, err := conn.CopyFrom(ctx, pgx.Identifier{t.name}, t.columns, src)
		for range rows { // drain, so the generator ends
		}
		if err != nil {
			return fmt.Errorf("copy %s: %w", t.name, err)
		}
	}
	_, err = conn.Exec(ctx, "VACUUM (ANALYZE) holdings, animals, movements, movement_devices, movement_batches")
	return err
}

func pgValues(v []any) []any {
	for i, x := range v {
		if t, ok := x.(time.Time); ok && t.IsZero() {
			v[i] = nil
		}
	}
	return v
}

// insertSQLite writes the registry with multi-row INSERTs in large
// transactions, synchronous=OFF for the build only, then analyses.
func insertSQLite(ctx context.Context, path string, s shape) error {
	conn, done, err := database.BulkSQLite(ctx, path, "PRAGMA synchronous=OFF", "PRAGMA cache_size=-1048576", "PRAGMA foreign_keys=OFF", "BEGIN")
	if err != nil {
		return err
	}
	defer done()
	w := &sqliteWriter{ctx: ctx, conn: conn, stmts: map[string]*sql.Stmt{}, buf: map[string][][]any{}}
	for _, v := range holdingRows(s) {
		w.add("holdings", []string{"cph", "type"}, v)
	}
	n := 0
	generate(s, func(r row) {
		for _, t := range tables {
			for _, v := range t.rows(&r, nil) {
				w.add(t.name, t.columns, sqliteValues(v))
			}
		}
		if n++; n%100_000 == 0 {
			w.commit()
		}
	}, func(a animal) {
		t := tables[3]
		for _, v := range t.rows(nil, &a) {
			w.add(t.name, t.columns, sqliteValues(v))
		}
	})
	w.flushAll()
	if w.err != nil {
		return w.err
	}
	for _, p := range []string{"COMMIT", "ANALYZE", "PRAGMA synchronous=FULL", "PRAGMA wal_checkpoint(TRUNCATE)"} {
		if _, err := conn.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

func sqliteValues(v []any) []any {
	for i, x := range v {
		switch x := x.(type) {
		case time.Time:
			if x.IsZero() {
				v[i] = nil
			} else {
				v[i] = x.Format(time.DateOnly)
			}
		case bool:
			v[i] = 0
			if x {
				v[i] = 1
			}
		}
	}
	return v
}

// sqliteWriter buffers rows per table and writes 100 at a time.
type sqliteWriter struct {
	ctx   context.Context
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	buf   map[string][][]any
	cols  map[string][]string
	err   error
}

const sqliteRows = 100

func (w *sqliteWriter) add(table string, cols []string, v []any) {
	if w.cols == nil {
		w.cols = map[string][]string{}
	}
	w.cols[table] = cols
	w.buf[table] = append(w.buf[table], v)
	if len(w.buf[table]) == sqliteRows {
		w.flush(table)
	}
}

func (w *sqliteWriter) flush(table string) {
	rows := w.buf[table]
	if len(rows) == 0 || w.err != nil {
		return
	}
	cols := w.cols[table]
	key := fmt.Sprintf("%s/%d", table, len(rows))
	st := w.stmts[key]
	if st == nil {
		one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
		q := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", len(rows)), ", ")
		if st, w.err = w.conn.PrepareContext(w.ctx, q); w.err != nil {
			return
		}
		w.stmts[key] = st
	}
	var args []any
	for _, r := range rows {
		args = append(args, r...)
	}
	if _, err := st.ExecContext(w.ctx, args...); err != nil {
		w.err = fmt.Errorf("insert into %s: %w", table, err)
	}
	w.buf[table] = rows[:0]
}

func (w *sqliteWriter) flushAll() {
	for t := range w.buf {
		w.flush(t)
	}
}

// commit writes what is buffered and starts a new transaction, so that
// the WAL does not grow with the whole build.
func (w *sqliteWriter) commit() {
	w.flushAll()
	if w.err != nil {
		return
	}
	for _, p := range []string{"COMMIT", "BEGIN"} {
		if _, err := w.conn.ExecContext(w.ctx, p); err != nil {
			w.err = err
			return
		}
	}
}
