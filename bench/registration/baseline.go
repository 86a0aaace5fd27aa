package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// The naive server Drover is compared with: net/http, no middleware, and
// one INSERT per request, committed on its own, into the same kind of
// database at the same durability (SQLite: WAL, synchronous=FULL, one
// writer connection; PostgreSQL: a pgx pool with Drover's defaults).
const (
	baselineSQLite = `CREATE TABLE bench_baseline (id INTEGER PRIMARY KEY AUTOINCREMENT,
		received_at TEXT NOT NULL, correlation_id TEXT NOT NULL, body BLOB NOT NULL) STRICT`
	baselinePostgres = `CREATE TABLE bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		received_at timestamptz NOT NULL, correlation_id text NOT NULL, body bytea NOT NULL)`
	baselineInsert = `INSERT INTO bench_baseline (received_at, correlation_id, body) VALUES ($1, $2, $3) RETURNING id`
)

// startBaseline opens the baseline's database (a file beside the SQLite
// database, or a table in the PostgreSQL schema) and serves POST / on a
// free port until close is called.
func startBaseline(ctx context.Context, t *target) (base string, close func(), err error) {
	var db *sql.DB
	var stamp func() any
	closeDB := func() { _ = db.Close() }
	defer func() {
		if err != nil && db != nil {
			closeDB()
		}
	}()
	if t.Postgres {
		var pool *pgxpool.Pool
		if pool, err = pgxpool.New(ctx, t.DSN); err != nil { // the pool Drover's store makes of the URL
			return "", nil, err
		}
		db, stamp = stdlib.OpenDBFromPool(pool), func() any { return time.Now() }
		closeDB = func() { _ = db.Close(); pool.Close() }
		_, err = db.ExecContext(ctx, baselinePostgres)
	} else {
		q := url.Values{"_busy_timeout": {"10000"}, "_foreign_keys": {"1"}, "_journal_mode": {"WAL"},
			"_synchronous": {"FULL"}, "_txlock": {"immediate"}}
		if db, err = sql.Open("sqlite", t.dir+"/baseline.db?"+q.Encode()); err != nil {
			return "", nil, err
		}
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		stamp = func() any { return time.Now().UTC().Format("2006-01-02T15:04:05.000000Z") }
		_, err = db.ExecContext(ctx, baselineSQLite)
	}
	if err != nil {
		return "", nil, fmt.Errorf("baseline table: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: naive(db, stamp), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/", sync.OnceFunc(func() {
		_ = srv.Shutdown(context.Background())
		closeDB()
		if !t.Postgres {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				_ = os.Remove(t.dir + "/baseline.db" + suffix)
			}
		}
	}), nil
}

// naive stores each body as it comes and answers 201 with its id.
func naive(db *sql.DB, stamp func() any) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var id int64
		err = db.QueryRowContext(r.Context(), baselineInsert, stamp(), r.Header.Get("X-Correlation-ID"), body).Scan(&id)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"requestId":%d}`, id)
	})
}
