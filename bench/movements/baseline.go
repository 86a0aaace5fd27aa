package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// baseline is the naive server Drover is compared with: net/http, no
// middleware, and one INSERT per request, committed on its own, into the
// same kind of database at the same durability.
type baseline struct {
	URL   string
	close func()
}

const (
	baselineSQLite = `CREATE TABLE bench_baseline (id INTEGER PRIMARY KEY AUTOINCREMENT,
		received_at TEXT NOT NULL, correlation_id TEXT NOT NULL, body BLOB NOT NULL) STRICT`
	baselinePostgres = `CREATE TABLE bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		received_at timestamptz NOT NULL, correlation_id text NOT NULL, body bytea NOT NULL)`
	baselineInsert = `INSERT INTO bench_baseline (received_at, correlation_id, body) VALUES ($1, $2, $3) RETURNING id`
)

type inserter func(ctx context.Context, correlation string, body []byte) (id int64, err error)

// startBaseline opens the baseline's database, a file beside the SQLite
// database or a table in the PostgreSQL schema, and serves POST / on a
// free port.
func startBaseline(ctx context.Context, t *target) (*baseline, error) {
	var insert inserter
	var closeDB func()
	if t.Postgres {
		pool, err := pgxpool.New(ctx, t.DSN) // the pool Drover's store uses, with its defaults
		if err != nil {
			return nil, err
		}
		if _, err := pool.Exec(ctx, "DROP TABLE IF EXISTS bench_baseline; "+baselinePostgres); err != nil {
			pool.Close()
			return nil, fmt.Errorf("baseline table: %w", err)
		}
		insert = func(ctx context.Context, c string, b []byte) (id int64, err error) {
			return id, pool.QueryRow(ctx, baselineInsert, time.Now(), c, b).Scan(&id)
		}
		closeDB = pool.Close
	} else {
		path := t.DSN + ".baseline"
		removeSQLite(path)
		// The parameters of the store's writer (internal/store/sqlite, openPools):
		// WAL, synchronous=FULL, one connection.
		q := url.Values{"_busy_timeout": {"10000"}, "_foreign_keys": {"1"}, "_journal_mode": {"WAL"},
			"_synchronous": {"FULL"}, "_txlock": {"immediate"}}
		db, err := sql.Open("sqlite", path+"?"+q.Encode())
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		if _, err := db.ExecContext(ctx, baselineSQLite); err != nil {
			db.Close()
			return nil, fmt.Errorf("baseline table: %w", err)
		}
		insert = func(ctx context.Context, c string, b []byte) (id int64, err error) {
			now := time.Now().UTC().Format("2006-01-02T15:04:05.000000Z")
			return id, db.QueryRowContext(ctx, baselineInsert, now, c, b).Scan(&id)
		}
		closeDB = func() { db.Close(); removeSQLite(path) }
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		closeDB()
		return nil, err
	}
	srv := &http.Server{Handler: naive(insert), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	var once sync.Once
	return &baseline{URL: "http://" + ln.Addr().String() + "/", close: func() {
		once.Do(func() {
			_ = srv.Shutdown(context.Background())
			closeDB()
		})
	}}, nil
}

// naive stores each body as it comes and answers 201 with its id.
func naive(insert inserter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		id, err := insert(r.Context(), r.Header.Get("X-Correlation-ID"), body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"requestId":%d}`, id)
	})
}

func removeSQLite(path string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
	}
}
