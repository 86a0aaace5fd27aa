// Package baseline is the naive server the benchmark programs compare
// Drover with: net/http, no middleware, and one INSERT per request,
// committed on its own, into the same kind of database at the same
// durability (SQLite: a file beside the measured one, opened as the
// store opens its writer, WAL, synchronous=FULL, fdatasync, one connection;
// PostgreSQL: a table in the measured schema, through a pgx pool with
// Drover's defaults). What Drover adds over it is then what its figures
// cost.
package baseline

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
	sqlitedriver "modernc.org/sqlite"

	"github.com/drover-registry/drover/bench/internal/database"
)

const (
	createSQLite = `CREATE TABLE bench_baseline (id INTEGER PRIMARY KEY AUTOINCREMENT,
		received_at TEXT NOT NULL, correlation_id TEXT NOT NULL, body BLOB NOT NULL) STRICT`
	createPostgres = `CREATE TABLE bench_baseline (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		received_at timestamptz NOT NULL, correlation_id text NOT NULL, body bytea NOT NULL)`
	insert = `INSERT INTO bench_baseline (received_at, correlation_id, body) VALUES ($1, $2, $3) RETURNING id`
)

// Server is the baseline, serving POST / until Close.
type Server struct {
	URL   string
	close func()
}

// Close stops the server and removes its table's file; it may be called
// more than once.
func (s *Server) Close() { s.close() }

type inserter func(ctx context.Context, correlation string, body []byte) (id int64, err error)

// Start opens the baseline's database beside the target's and serves
// POST / on a free port of the loopback.
func Start(ctx context.Context, t *database.Target) (*Server, error) {
	var ins inserter
	var closeDB func()
	if t.Postgres {
		pool, err := pgxpool.New(ctx, t.DSN) // the pool Drover's store makes of the URL
		if err != nil {
			return nil, err
		}
		// The schema may be a kept one, measured again.
		if _, err := pool.Exec(ctx, "DROP TABLE IF EXISTS bench_baseline; "+createPostgres); err != nil {
			pool.Close()
			return nil, fmt.Errorf("baseline table: %w", err)
		}
		ins = func(ctx context.Context, c string, b []byte) (id int64, err error) {
			return id, pool.QueryRow(ctx, insert, time.Now(), c, b).Scan(&id)
		}
		closeDB = pool.Close
	} else {
		path := t.DSN + ".baseline"
		if err := database.RemoveSQLite(path); err != nil {
			return nil, err
		}
		// The parameters of the store's writer (internal/store/sqlite, openPools),
		// and its sync: fdatasync, process-wide.
		if _, err := sqlitedriver.Fdatasync(true); err != nil && !errors.Is(err, sqlitedriver.ErrFdatasyncUnavailable) {
			return nil, err
		}
		q := url.Values{"_busy_timeout": {"10000"}, "_foreign_keys": {"1"}, "_journal_mode": {"WAL"},
			"_synchronous": {"FULL"}, "_txlock": {"immediate"}}
		db, err := sql.Open("sqlite", path+"?"+q.Encode())
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		if _, err := db.ExecContext(ctx, createSQLite); err != nil {
			db.Close()
			return nil, fmt.Errorf("baseline table: %w", err)
		}
		ins = func(ctx context.Context, c string, b []byte) (id int64, err error) {
			now := time.Now().UTC().Format("2006-01-02T15:04:05.000000Z")
			return id, db.QueryRowContext(ctx, insert, now, c, b).Scan(&id)
		}
		closeDB = func() {
			db.Close()
			if err := database.RemoveSQLite(path); err != nil {
				fmt.Fprintln(os.Stderr, "bench:", err)
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		closeDB()
		return nil, err
	}
	srv := &http.Server{Handler: naive(ins), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &Server{URL: "http://" + ln.Addr().String() + "/", close: sync.OnceFunc(func() {
		_ = srv.Shutdown(context.Background())
		closeDB()
	})}, nil
}

// naive stores each body as it comes and answers 201 with its id.
func naive(ins inserter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		id, err := ins(r.Context(), r.Header.Get("X-Correlation-ID"), body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"requestId":%d}`, id)
	})
}
